/** The paging envelope (docs/domain.md §11) for one page of a list of `total` rows. */
export function paged<T>(data: T[], total: number, page: number, pageSize: number) {
  const from = data.length ? (page - 1) * pageSize + 1 : 0;
  return {
    Data: data,
    Total: total,
    PerPage: pageSize,
    CurrentPage: page,
    LastPage: Math.max(1, Math.ceil(total / pageSize)),
    From: from,
    To: data.length ? from + data.length - 1 : 0,
  };
}
