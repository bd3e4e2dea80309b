import { PAGE_SIZES } from '@rodmenys/contract';
import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Paging state of a server-paged table and antd's pagination for it (page sizes 5 to 500). */
export function useServerPaging(defaultPageSize: number) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultPageSize);
  const pagination = (paged: { Total: number; From: number; To: number } | undefined): TablePaginationConfig => ({
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
  return { page, pageSize, setPage, pagination };
}
