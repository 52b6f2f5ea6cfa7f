import { Alert, Button, Table, Tag } from 'antd';
import type { TenantVerification, Verification } from '../../api/types';
import { useT } from '../../i18n';

/** The verdict of `GET /v1/audit/verify`: ok, or the first broken event with a link to it. */
export function VerifyResult(props: {
  result: Verification;
  onOpenEvent: (id: string) => void;
  onClose: () => void;
}) {
  const t = useT();
  const r = props.result;
  const broken = r.firstBrokenEventId;
  return (
    <Alert
      type={r.ok ? 'success' : 'error'}
      showIcon
      closable={{ onClose: props.onClose }}
      data-testid="verify-result"
      data-ok={String(r.ok)}
      style={{ marginBottom: 16 }}
      title={
        r.ok ? t('audit.verifyOk', { checked: r.checked }) : t('audit.verifyBroken', { id: broken ?? '?' })
      }
      description={
        <>
          {!r.ok && r.problem && <p style={{ margin: '4px 0' }}>{r.problem}</p>}
          {!r.ok && broken && (
            <Button size="small" danger onClick={() => props.onOpenEvent(broken)} data-testid="open-broken">
              {t('audit.openBroken')}
            </Button>
          )}
          {r.tenants.length > 0 && (
            <Table<TenantVerification>
              style={{ marginTop: 8 }}
              size="small"
              rowKey="tenantId"
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={[...r.tenants]}
              columns={[
                { title: t('audit.verifyTenant'), dataIndex: 'tenantId' },
                {
                  title: t('audit.col.status'),
                  dataIndex: 'ok',
                  render: (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? 'OK' : '✗'}</Tag>,
                },
                { title: t('audit.verifyChecked'), dataIndex: 'checked' },
                {
                  title: t('audit.verifyCheckpoints'),
                  dataIndex: 'checkpoints',
                  render: (v?: number) => v ?? '—',
                },
                {
                  title: t('audit.verifyProblem'),
                  render: (_, x) =>
                    x.ok ? (
                      '—'
                    ) : (
                      <>
                        {x.problem}{' '}
                        {x.firstBrokenEventId && (
                          <Button
                            type="link"
                            size="small"
                            onClick={() => props.onOpenEvent(x.firstBrokenEventId!)}
                          >
                            #{x.firstBrokenEventId}
                          </Button>
                        )}
                      </>
                    ),
                },
              ]}
            />
          )}
        </>
      }
    />
  );
}
