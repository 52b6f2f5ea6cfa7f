import { Button, Select, Space, Typography } from 'antd';
import { useT } from '../i18n';

/** What a pager moves through: a list paged by `useCursorPages`. */
interface Paged {
  readonly pageNumber: number;
  readonly limit: number;
  readonly canGoBack: boolean;
  readonly canGoForward: boolean;
  first(): void;
  previous(): void;
  next(): unknown;
  setLimit(size: number): void;
}

/** Page number, first / previous / next, and the page size. */
export function CursorPager(props: { pages: Paged; sizes: readonly number[]; testIdPrefix: string }) {
  const t = useT();
  const { pages } = props;
  return (
    <Space style={{ marginTop: 16, width: '100%', justifyContent: 'flex-end' }} wrap>
      <Typography.Text type="secondary" data-testid={`${props.testIdPrefix}-page-number`}>
        {t('common.page', { page: pages.pageNumber })}
      </Typography.Text>
      <Button disabled={!pages.canGoBack} onClick={pages.first}>
        {t('common.firstPage')}
      </Button>
      <Button disabled={!pages.canGoBack} onClick={pages.previous}>
        {t('common.prev')}
      </Button>
      <Button
        disabled={!pages.canGoForward}
        onClick={() => void pages.next()}
        data-testid={`${props.testIdPrefix}-next`}
      >
        {t('common.next')}
      </Button>
      <Select<number>
        value={pages.limit}
        style={{ width: 130 }}
        onChange={pages.setLimit}
        options={props.sizes.map((size) => ({ value: size, label: t('common.pageSize', { size }) }))}
      />
    </Space>
  );
}
