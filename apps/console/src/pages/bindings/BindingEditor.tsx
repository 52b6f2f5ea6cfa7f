import { App } from 'antd';
import { useMemo } from 'react';
import type { BindingView, CatalogTool } from '../../api/types';
import { useT } from '../../i18n';
import { AgentSettings } from './AgentSettings';
import { issuesByRow } from './binding-rules';
import { ConflictAlert } from './ConflictAlert';
import { EditorActions } from './EditorActions';
import { EditorProblems } from './EditorProblems';
import { EditorStatus } from './EditorStatus';
import { PreviewModal } from './PreviewModal';
import { ToolsTable } from './ToolsTable';
import { TryItPanel } from './TryItPanel';
import { useBindingDraft } from './useBindingDraft';

interface Props {
  readonly tenantId: string;
  readonly binding: BindingView;
  readonly catalog: readonly CatalogTool[];
  /** Every agent type of the tenant (the sub-agents are picked among the others). */
  readonly agentTypes: readonly string[];
  /** The tenant's approver groups (`approvals.groups`), which its rules may name. */
  readonly approverGroups: readonly string[];
}

/**
 * Edits one agent type's tools and run settings against the version it was read at. Saving goes through a preview;
 * a stale version (409) shows what the other person changed and offers to reload or rebase; a
 * refusal (400) shows each issue next to its tool. The state lives in {@link useBindingDraft}.
 */
export function BindingEditor({ tenantId, binding, catalog, agentTypes, approverGroups }: Props) {
  const t = useT();
  const { message } = App.useApp();
  const editor = useBindingDraft(tenantId, binding);
  const { base, draft, edit } = editor;
  const byName = useMemo(() => new Map(catalog.map((c) => [c.name, c])), [catalog]);
  const available = catalog.filter((c) => !draft.some((d) => d.name === c.name));

  const save = async () => {
    const saved = await editor.save();
    if (saved) message.success(t('bindings.saved', { version: saved.version }));
  };

  return (
    <div data-testid="binding-editor" data-version={base.version}>
      <EditorStatus base={base} dirty={editor.dirty} />
      {editor.conflict && (
        <ConflictAlert
          baseVersion={base.version}
          baseTools={base.tools}
          current={editor.conflict}
          onReload={editor.reloadLatest}
          onRebase={editor.rebase}
        />
      )}
      <EditorProblems issues={editor.issues} error={editor.error} />
      <AgentSettings
        form={editor.runDraft}
        others={agentTypes.filter((a) => a !== base.agentType)}
        issues={editor.issues}
        onChange={editor.editRun}
      />
      <ToolsTable
        tools={draft}
        catalog={byName}
        issues={issuesByRow(editor.issues)}
        groups={approverGroups}
        onChange={(i, entry) => edit(draft.map((d, j) => (j === i ? entry : d)))}
        onRemove={(i) => edit(draft.filter((_, j) => j !== i))}
      />
      <EditorActions
        available={available}
        dirty={editor.dirty}
        previewing={editor.busy === 'preview'}
        onAdd={(name) => edit([...draft, { name }])}
        onDiscard={editor.discard}
        onPreview={editor.openPreview}
      />
      <PreviewModal
        preview={editor.preview}
        baseVersion={base.version}
        runChanged={editor.runChanged}
        saving={editor.busy === 'save'}
        onSave={save}
        onClose={editor.closePreview}
      />
      <TryItPanel tenantId={tenantId} agentType={base.agentType} tools={base.tools.map((b) => b.name)} />
    </div>
  );
}
