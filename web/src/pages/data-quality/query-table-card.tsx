import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { LoadError } from '../../components/load-error';

/** An operator's table card: its rows from one query, a retry when it fails, and what goes with it. */
export function QueryTableCard<T extends object>({
  title,
  query,
  rowKey,
  columns,
  children,
}: {
  title: string;
  query: UseQueryResult<T[], unknown>;
  rowKey: keyof T & string;
  columns: ColumnsType<T>;
  children?: ReactNode;
}) {
  return (
    <Card size="small" title={title} style={{ marginTop: 16 }}>
      {query.error ? <LoadError error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Table<T>
        size="small"
        rowKey={rowKey}
        loading={query.isLoading}
        dataSource={query.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        columns={columns}
      />
      {children}
    </Card>
  );
}
