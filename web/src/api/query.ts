import type { Endpoint, ResponseOf } from '@rodmenys/contract';
import {
  keepPreviousData,
  QueryClient,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, type CallArgs, call } from './call';

/** Client errors (4xx) are answers, not faults: retrying them changes nothing. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}

/** The cache key of a call: the endpoint's method and path, then its arguments. */
export const keyOf = (endpoint: Endpoint, args?: object) =>
  args ? [endpoint.method, endpoint.path, args] : [endpoint.method, endpoint.path];

type QueryOptions<E extends Endpoint> = Omit<UseQueryOptions<ResponseOf<E>, ApiError>, 'queryKey' | 'queryFn'> & {
  /** Keep showing the previous page while the next one loads (paged tables). */
  keepPrevious?: boolean;
};

/** A GET endpoint as a TanStack query keyed by its arguments. */
export function useEndpointQuery<E extends Endpoint>(endpoint: E, args: CallArgs<E>, options: QueryOptions<E> = {}) {
  const { keepPrevious, ...rest } = options;
  return useQuery<ResponseOf<E>, ApiError>({
    queryKey: keyOf(endpoint, args),
    queryFn: ({ signal }) => (call as (e: E, a: CallArgs<E>) => Promise<ResponseOf<E>>)(endpoint, { ...args, signal }),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    ...rest,
  });
}

/** A changing endpoint as a TanStack mutation; `invalidates` lists endpoints whose cached answers go stale. */
export function useEndpointMutation<E extends Endpoint>(endpoint: E, invalidates: readonly Endpoint[] = []) {
  const client = useQueryClient();
  return useMutation<ResponseOf<E>, ApiError, CallArgs<E>>({
    mutationFn: (args) => (call as (e: E, a: CallArgs<E>) => Promise<ResponseOf<E>>)(endpoint, args),
    onSuccess: async () => {
      await Promise.all(invalidates.map((e) => client.invalidateQueries({ queryKey: keyOf(e) })));
    },
  });
}
