import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Input, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { exportTenantYaml } from '../../api/admin';
import { useApiClient } from '../../api/ApiClientContext';
import { saveBlob } from '../../api/client';
import { useImportTenantYaml } from '../../api/mutations';
import type { ImportResult } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT } from '../../i18n';

/**
 * A tenant's bindings as a config/tenants YAML file: download it, or upload / paste one back (the
 * tenant lists and bindings refetch after an import).
 */
export function YamlPanel({ tenantId }: { tenantId: string }) {
  const t = useT();
  const { message } = App.useApp();
  const api = useApiClient();
  const importYaml = useImportTenantYaml(tenantId);
  const [yaml, setYaml] = useState('');
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const download = async () => {
    setBusy('export');
    setError(null);
    try {
      const { blob, filename } = await exportTenantYaml(api, tenantId);
      saveBlob(blob, filename ?? `${tenantId}.yaml`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const upload = async () => {
    setBusy('import');
    setError(null);
    setResult(null);
    try {
      const r = await importYaml.mutateAsync(yaml);
      setResult(r);
      message.success(importSummary(t, r));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="yaml-panel">
      <ErrorAlert error={error} />
      <Card size="small" title={t('bindings.yaml.export')}>
        <Typography.Paragraph type="secondary">{t('bindings.yaml.exportHint')}</Typography.Paragraph>
        <Button
          icon={<DownloadOutlined />}
          loading={busy === 'export'}
          onClick={download}
          data-testid="yaml-export"
        >
          {t('bindings.yaml.export')} ({tenantId}.yaml)
        </Button>
      </Card>
      <Card size="small" title={t('bindings.yaml.import')}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Upload
            accept=".yaml,.yml,text/yaml"
            maxCount={1}
            showUploadList={false}
            beforeUpload={async (file) => {
              setYaml(await file.text());
              return false;
            }}
          >
            <Button icon={<UploadOutlined />}>{t('bindings.yaml.upload')}</Button>
          </Upload>
          <Input.TextArea
            rows={14}
            value={yaml}
            onChange={(e) => setYaml(e.target.value)}
            placeholder={t('bindings.yaml.paste')}
            style={{ fontFamily: 'monospace', fontSize: 12 }}
            data-testid="yaml-text"
          />
          <Button
            type="primary"
            disabled={!yaml.trim()}
            loading={busy === 'import'}
            onClick={upload}
            data-testid="yaml-import"
          >
            {t('bindings.yaml.apply')}
          </Button>
          {result && (
            <Alert
              type="success"
              showIcon
              title={importSummary(t, result)}
              description={
                result.changed.length
                  ? t('bindings.yaml.changedList', { list: result.changed.join(', ') })
                  : undefined
              }
            />
          )}
        </Space>
      </Card>
    </Space>
  );
}

/** The gateway says which agent types got a new version, and whether the file changed nothing. */
const importSummary = (t: ReturnType<typeof useT>, r: ImportResult) =>
  r.unchanged ? t('bindings.yaml.unchanged') : t('bindings.yaml.result', { changed: r.changed.length });
