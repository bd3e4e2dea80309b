import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@rodmenys/contract';
import type { TablePaginationConfig } from 'antd';
import { cloneElement, isValidElement, type ReactElement, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** One page of a server-paged list as the API returns it. */
interface Paged<T> {
  Data: T[];
  Total: number;
  From: number;
  To: number;
}

/**
 * Paging state of a server-paged table (page sizes 5 to 500) and `tableProps(query)`: the rows,
 * loading flag and antd pagination a table of that query takes.
 */
export function useServerPaging(defaultPageSize: number) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultPageSize);
  const pagerNames = usePagerNames();
  const pagination = (paged: Paged<unknown> | undefined): TablePaginationConfig => ({
    ...pagerNames,
    current: page,
    pageSize,
    total: paged?.Total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showTotal: () => (paged ? t('common.total', { from: paged.From, to: paged.To, total: paged.Total }) : ''),
    onChange: (nextPage, nextSize) => {
      setPage(nextSize !== pageSize ? 1 : nextPage);
      setPageSize(nextSize);
    },
  });
  const tableProps = <T,>(query: { data?: Paged<T>; isFetching: boolean }) => ({
    dataSource: query.data?.Data,
    loading: query.isFetching,
    pagination: pagination(query.data),
  });
  return { page, pageSize, setPage, tableProps };
}

/**
 * A pager's arrows named in the UI language: antd's previous/next buttons are otherwise named by
 * their icons, "left" and "right", in English. Spread into a table's `pagination`.
 */
export function usePagerNames(): Pick<TablePaginationConfig, 'itemRender'> {
  const { t } = useTranslation();
  const names: Record<string, string> = {
    prev: t('common.prevPage'),
    next: t('common.nextPage'),
    'jump-prev': t('common.prevPages'),
    'jump-next': t('common.nextPages'),
  };
  return {
    itemRender: (_page, type, element: ReactNode) => {
      const name = names[type];
      if (!name || !isValidElement(element)) return element;
      if (type === 'jump-prev' || type === 'jump-next') {
        // The jumps are a link without an address inside a focusable list item: a name on either is an
        // attribute their role does not take (axe: aria-prohibited-attr). Their text is the name, read
        // from a hidden span; the arrows and the ellipsis are only drawn.
        const link = element as ReactElement<{ children?: ReactNode }>;
        return cloneElement(
          link,
          {},
          <span key="drawn" aria-hidden="true">
            {link.props.children}
          </span>,
          <span key="name" className="visually-hidden">
            {name}
          </span>,
        );
      }
      // The arrow keeps its look but not its own name ("left"): the button carries the name.
      const Arrow = type === 'prev' ? LeftOutlined : type === 'next' ? RightOutlined : null;
      return cloneElement(
        element as ReactElement<Record<string, unknown>>,
        { 'aria-label': name },
        ...(Arrow ? [<Arrow key="arrow" aria-hidden aria-label={undefined} />] : []),
      );
    },
  };
}
