import { Button, Select, Space, Typography } from 'antd';
import { useT } from '../../i18n';
import { RUN_PAGE_SIZES } from './run-filter';
import type { Runs } from './useRuns';

/** Page number, first / previous / next, and the page size. */
export function RunsPager({ runs }: { runs: Runs }) {
  const t = useT();
  return (
    <Space style={{ marginTop: 16, width: '100%', justifyContent: 'flex-end' }} wrap>
      <Typography.Text type="secondary">{t('runs.page', { page: runs.pageNumber })}</Typography.Text>
      <Button disabled={!runs.canGoBack} onClick={runs.first}>
        {t('runs.firstPage')}
      </Button>
      <Button disabled={!runs.canGoBack} onClick={runs.previous}>
        {t('runs.prev')}
      </Button>
      <Button disabled={!runs.canGoForward} onClick={runs.next} data-testid="runs-next">
        {t('runs.next')}
      </Button>
      <Select<number>
        value={runs.limit}
        style={{ width: 130 }}
        onChange={runs.setLimit}
        options={RUN_PAGE_SIZES.map((size) => ({ value: size, label: t('runs.pageSize', { size }) }))}
      />
    </Space>
  );
}
