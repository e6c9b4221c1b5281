import type { TablePaginationConfig } from 'antd';
import { useCallback, useState } from 'react';
import { getStoredPageSize, PAGE_SIZE_OPTIONS, storePageSize } from './page-size';

/** List parameters as the console API expects them (page counted from 1). */
export interface ListParams {
  page: number;
  pageSize: number;
}

/**
 * Paging state for an antd Table: page from 1, page size remembered in localStorage `page-size`.
 * `pagination(total)` returns the Table's pagination prop.
 */
export function useTableParams() {
  const [params, setParams] = useState<ListParams>(() => ({ page: 1, pageSize: getStoredPageSize() }));

  const setPage = useCallback((page: number) => setParams((current) => ({ ...current, page })), []);
  const resetPage = useCallback(() => setParams((current) => ({ ...current, page: 1 })), []);

  const pagination = useCallback(
    (total: number): TablePaginationConfig => ({
      current: params.page,
      pageSize: params.pageSize,
      total,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
      onChange: (page, pageSize) => {
        if (pageSize !== params.pageSize) {
          storePageSize(pageSize);
          setParams({ page: 1, pageSize });
        } else {
          setParams({ page, pageSize });
        }
      },
    }),
    [params],
  );

  return { params, setPage, resetPage, pagination };
}
