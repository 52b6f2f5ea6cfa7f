import { DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, AutoComplete, Button, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { exportProcessingRecords, listProcessingRecords } from '../../api/admin';
import { useApiClient } from '../../api/ApiClientContext';
import { saveBlob } from '../../api/client';
import type { ProcessingRecordEntry } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT } from '../../i18n';

/**
 * A tenant's processing records (PIPL 第55–56条, ADR 040): per tool and recipient, the purpose,
 * the categories of personal information, the legal basis, the recipient's region and whether the
 * transfer leaves mainland China, and how many calls sent classified fields there.
 */
export function ProcessingRecordsView(props: { tenantId: string | null; tenants: readonly string[] }) {
  const t = useT();
  const api = useApiClient();
  const [picked, setPicked] = useState<string>(props.tenantId ?? props.tenants[0] ?? '');
  // A tenant-bound viewer reads its own; a platform-wide one names a tenant (picked or typed:
  // an auditor may not list tenants).
  const tenantId = props.tenantId ?? (picked.trim() || undefined);
  const records = useQuery({
    queryKey: ['/v1/admin/tenants/processing-records', tenantId],
    queryFn: ({ signal }) => listProcessingRecords(api, tenantId!, signal),
    enabled: tenantId !== undefined,
  });
  const { message } = App.useApp();
  // The CSV for Excel (PIPL 第55–56条 records handed to an assessor), fetched with the key as a header.
  const download = useMutation({
    mutationFn: (id: string) => exportProcessingRecords(api, id),
    onSuccess: ({ blob, filename }) => {
      const name = filename ?? 'toolgate-processing-records.csv';
      saveBlob(blob, name);
      message.success(t('audit.exported', { filename: name }));
    },
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space>
        {props.tenantId === null && (
          <AutoComplete
            style={{ minWidth: 220 }}
            value={picked}
            onChange={setPicked}
            placeholder={t('audit.processing.tenant')}
            options={props.tenants.map((id) => ({ value: id }))}
            data-testid="processing-tenant"
          />
        )}
        <Button
          icon={<DownloadOutlined />}
          disabled={tenantId === undefined}
          loading={download.isPending}
          onClick={() => tenantId !== undefined && download.mutate(tenantId)}
          data-testid="processing-export-csv"
        >
          {t('audit.exportCsv')}
        </Button>
      </Space>
      <ErrorAlert error={records.error ?? download.error} />
      <Table<ProcessingRecordEntry>
        data-testid="processing-records"
        size="small"
        rowKey={(r) => `${r.tool}\u0000${r.recipient}`}
        loading={records.isLoading}
        pagination={false}
        locale={{ emptyText: t('audit.processing.none') }}
        dataSource={records.data ? [...records.data] : []}
        columns={[
          { title: t('audit.processing.tool'), dataIndex: 'tool' },
          { title: t('audit.processing.purpose'), dataIndex: 'purpose' },
          {
            title: t('audit.processing.categories'),
            render: (_, r) => r.categories.map((c) => <Tag key={c}>{c}</Tag>),
          },
          { title: t('audit.processing.recipient'), dataIndex: 'recipient' },
          {
            title: t('audit.processing.region'),
            render: (_, r) => (
              <Space>
                {/* Where the region was read from (ADR 047): the record the data goes to, or the tenant file. */}
                <Tooltip title={t(`audit.processing.regionSource.${r.regionSource ?? 'none'}`)}>
                  <span data-testid="processing-region">{r.region ?? '—'}</span>
                </Tooltip>
                {r.crossBorder && (
                  <Tag color={r.crossBorderBasis ? 'gold' : 'red'}>
                    {r.crossBorderBasis
                      ? t('audit.processing.crossBorderWith', { basis: r.crossBorderBasis.basis })
                      : t('audit.processing.crossBorder')}
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: t('audit.processing.legalBasis'), dataIndex: 'legalBasis' },
          {
            title: t('audit.processing.calls'),
            align: 'right',
            render: (_, r) =>
              r.lastCountedAt ? (
                <Tooltip
                  title={t('audit.processing.lastCountedAt', {
                    at: new Date(r.lastCountedAt).toLocaleString(),
                  })}
                >
                  {r.calls}
                </Tooltip>
              ) : (
                r.calls
              ),
          },
        ]}
      />
    </Space>
  );
}
