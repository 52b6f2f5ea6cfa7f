import { Button, Select, Space, Typography } from 'antd';
import { useT } from '../../i18n';
import { PAGE_SIZES } from './audit-events';
import type { AuditEvents } from './useAuditEvents';

/** Page number, first / previous / next, and the page size. */
export function AuditPager({ events }: { events: AuditEvents }) {
  const t = useT();
  return (
    <Space style={{ marginTop: 16, width: '100%', justifyContent: 'flex-end' }} wrap>
      <Typography.Text type="secondary" data-testid="audit-page-number">
        {t('audit.page', { page: events.pageNumber })}
      </Typography.Text>
      <Button disabled={!events.canGoBack} onClick={events.first}>
        {t('audit.firstPage')}
      </Button>
      <Button disabled={!events.canGoBack} onClick={events.previous}>
        {t('audit.prev')}
      </Button>
      <Button disabled={!events.canGoForward} onClick={events.next} data-testid="audit-next">
        {t('audit.next')}
      </Button>
      <Select<number>
        value={events.limit}
        style={{ width: 130 }}
        onChange={events.setLimit}
        options={PAGE_SIZES.map((size) => ({ value: size, label: t('audit.pageSize', { size }) }))}
      />
    </Space>
  );
}
