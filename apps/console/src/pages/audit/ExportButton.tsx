import { DownloadOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/ApiClientContext';
import { exportAudit } from '../../api/audit';
import { saveBlob } from '../../api/client';
import type { AuditFilter } from '../../api/types';
import { useT } from '../../i18n';

/** Downloads the trail under `filter` as CSV or JSON Lines (fetched with the key as a header). */
export function ExportButton(props: {
  format: 'csv' | 'jsonl';
  filter: AuditFilter;
  onStart: () => void;
  onError: (error: unknown) => void;
}) {
  const t = useT();
  const { message } = App.useApp();
  const api = useApiClient();
  const { format } = props;
  const download = useMutation({
    mutationFn: () => exportAudit(api, format, props.filter),
    onSuccess: ({ blob, filename }) => {
      const name = filename ?? `toolgate-audit.${format}`;
      saveBlob(blob, name);
      message.success(t('audit.exported', { filename: name }));
    },
    onError: props.onError,
  });
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={download.isPending}
      onClick={() => {
        props.onStart();
        download.mutate();
      }}
      data-testid={`export-${format}`}
    >
      {format === 'csv' ? t('audit.exportCsv') : t('audit.exportJsonl')}
    </Button>
  );
}
