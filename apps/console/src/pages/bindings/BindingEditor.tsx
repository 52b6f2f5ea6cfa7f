import { EyeOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, App, Button, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { previewBindings, saveBindings } from '../../api/admin';
import { ApiError } from '../../api/client';
import type { BindingPreview, BindingTool, BindingView, CatalogTool, Issue } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatTime } from '../../components/format';
import { RiskBadge } from '../../components/RiskBadge';
import { useI18n } from '../../i18n';
import { generalIssues, issuesByRow, normalize, sameTools } from './binding-rules';
import { ConflictAlert } from './ConflictAlert';
import { PreviewModal } from './PreviewModal';
import { ToolsTable } from './ToolsTable';

interface Props {
  readonly tenantId: string;
  readonly binding: BindingView;
  readonly catalog: readonly CatalogTool[];
  /** A new version was saved (or loaded): the page refreshes its lists. */
  readonly onChanged: () => void;
}

/**
 * Edits one agent type's tools against the version it was read at. Saving goes through a preview;
 * a stale version (409) shows what the other person changed and offers to reload or rebase; a
 * refusal (400) shows each issue next to its tool.
 */
export function BindingEditor({ tenantId, binding, catalog, onChanged }: Props) {
  const { t, language } = useI18n();
  const { message } = App.useApp();
  const [base, setBase] = useState<BindingView>(binding);
  const [draft, setDraft] = useState<BindingTool[]>(() => binding.tools.map(normalize));
  const [issues, setIssues] = useState<Issue[]>([]);
  const [conflict, setConflict] = useState<BindingView | null>(null);
  const [preview, setPreview] = useState<BindingPreview | null>(null);
  const [busy, setBusy] = useState<'preview' | 'save' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const byName = useMemo(() => new Map(catalog.map((c) => [c.name, c])), [catalog]);
  const dirty = !sameTools(draft, base.tools);

  // A newer version read by the page replaces an untouched editor (never unsaved work).
  useEffect(() => {
    if (binding.version !== base.version && !dirty && !conflict) {
      setBase(binding);
      setDraft(binding.tools.map(normalize));
    }
  }, [binding, base.version, dirty, conflict]);

  const edit = (next: BindingTool[]) => {
    setDraft(next);
    setIssues([]);
  };

  const openPreview = async () => {
    setBusy('preview');
    setError(null);
    try {
      const p = await previewBindings(tenantId, base.agentType, draft.map(normalize));
      setIssues([...p.problems]);
      setPreview(p);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    setBusy('save');
    setError(null);
    try {
      const saved = await saveBindings(tenantId, base.agentType, {
        version: base.version,
        tools: draft.map(normalize),
        description: base.description,
      });
      setPreview(null);
      setBase(saved);
      setDraft(saved.tools.map(normalize));
      setIssues([]);
      setConflict(null);
      message.success(t('bindings.saved', { version: saved.version }));
      onChanged();
    } catch (err) {
      setPreview(null);
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') {
        const current = (err.details?.current as BindingView | null) ?? null;
        if (current) setConflict(current);
        else setError(err);
      } else if (err instanceof ApiError && err.issues.length) {
        setIssues(err.issues);
        setError(err);
      } else {
        setError(err);
      }
    } finally {
      setBusy(null);
    }
  };

  const reloadLatest = () => {
    if (!conflict) return;
    setBase(conflict);
    setDraft(conflict.tools.map(normalize));
    setConflict(null);
    setIssues([]);
    setError(null);
    onChanged();
  };

  const rebase = () => {
    if (!conflict) return;
    setBase(conflict);
    setConflict(null);
    setError(null);
    onChanged();
  };

  const rows = issuesByRow(issues);
  const loose = generalIssues(issues);
  const available = catalog.filter((c) => !draft.some((d) => d.name === c.name));

  return (
    <div data-testid="binding-editor" data-version={base.version}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Tag color="blue" data-testid="binding-version">
          {t('bindings.version', { version: base.version })}
        </Tag>
        <Typography.Text type="secondary">
          {t('bindings.updated', { by: base.updatedBy, at: formatTime(base.updatedAt, language) })}
        </Typography.Text>
        {base.description && <Typography.Text>{base.description}</Typography.Text>}
        {dirty && <Tag color="warning">{t('bindings.unsaved')}</Tag>}
      </Space>
      {conflict && (
        <ConflictAlert
          baseVersion={base.version}
          baseTools={base.tools}
          current={conflict}
          onReload={reloadLatest}
          onRebase={rebase}
        />
      )}
      {issues.length > 0 && error instanceof ApiError && error.code === 'INVALID_INPUT' ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="binding-invalid"
          title={t('bindings.invalidTitle')}
          description={[...issues].map((i) => (
            <div key={i.path + i.message}>{i.message}</div>
          ))}
        />
      ) : (
        <ErrorAlert error={error} />
      )}
      {loose.length > 0 && !(error instanceof ApiError) && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={loose.map((i) => i.message).join('；')}
        />
      )}
      <ToolsTable
        tools={draft}
        catalog={byName}
        issues={rows}
        onChange={(i, entry) => edit(draft.map((d, j) => (j === i ? entry : d)))}
        onRemove={(i) => edit(draft.filter((_, j) => j !== i))}
      />
      <Space wrap style={{ marginTop: 16, width: '100%', justifyContent: 'space-between' }}>
        <Select
          showSearch={{ optionFilterProp: 'value' }}
          value={null}
          style={{ width: 360 }}
          placeholder={t('bindings.addToolPlaceholder')}
          onChange={(name: string) => edit([...draft, { name }])}
          data-testid="add-tool"
          options={available.map((c) => ({
            value: c.name,
            label: (
              <Space size={4}>
                <span>{c.name}</span>
                <RiskBadge level={c.risk.level} short />
              </Space>
            ),
          }))}
        />
        <Space>
          <Button icon={<UndoOutlined />} disabled={!dirty} onClick={() => edit(base.tools.map(normalize))}>
            {t('bindings.discard')}
          </Button>
          <Button
            type="primary"
            icon={<EyeOutlined />}
            loading={busy === 'preview'}
            onClick={openPreview}
            data-testid="preview-save"
          >
            {t('bindings.previewAndSave')}
          </Button>
        </Space>
      </Space>
      <PreviewModal
        preview={preview}
        baseVersion={base.version}
        saving={busy === 'save'}
        onSave={save}
        onClose={() => setPreview(null)}
      />
    </div>
  );
}
