/**
 * The state of one binding editor: the version it was read at (`base`), the edited tools
 * (`draft`) and run settings (`runDraft`), the issues the gateway named, a save conflict, the preview. Saving goes through the
 * preview; a stale version (409) keeps the other person's version as `conflict`; a refusal (400)
 * keeps each issue for its row (and field), until the next edit.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { usePreviewBindings, useSaveBindings } from '../../api/mutations';
import { queryKeys } from '../../api/queries';
import type { BindingPreview, BindingTool, BindingView, Issue } from '../../api/types';
import { dottedIssues, normalize, sameTools } from './binding-rules';
import { runForm, runSettings, sameRun, type RunForm } from './run-settings-form';

export interface BindingDraft {
  readonly base: BindingView;
  readonly draft: readonly BindingTool[];
  readonly runDraft: RunForm;
  /** The run settings differ from the version read (the preview's tool diff does not show them). */
  readonly runChanged: boolean;
  readonly dirty: boolean;
  readonly issues: readonly Issue[];
  readonly conflict: BindingView | null;
  readonly preview: BindingPreview | null;
  readonly error: unknown;
  readonly busy: 'preview' | 'save' | null;
  /** Replaces the draft (an edit clears the issues of the last answer). */
  readonly edit: (next: BindingTool[]) => void;
  /** Replaces the run settings' form (clears the issues too). */
  readonly editRun: (next: RunForm) => void;
  readonly discard: () => void;
  readonly openPreview: () => Promise<void>;
  readonly closePreview: () => void;
  /** Saves the draft; resolves with the new version, or null when the gateway refused it. */
  readonly save: () => Promise<BindingView | null>;
  /** Conflict: drop the draft and continue from the other person's version. */
  readonly reloadLatest: () => void;
  /** Conflict: keep the draft and save it on top of the other person's version. */
  readonly rebase: () => void;
}

export function useBindingDraft(tenantId: string, binding: BindingView): BindingDraft {
  const cache = useQueryClient();
  const previewing = usePreviewBindings(tenantId, binding.agentType);
  const saving = useSaveBindings(tenantId, binding.agentType);
  const [base, setBase] = useState<BindingView>(binding);
  const [draft, setDraft] = useState<BindingTool[]>(() => binding.tools.map(normalize));
  const [runDraft, setRunDraft] = useState<RunForm>(() => runForm(binding.run));
  const [issues, setIssues] = useState<Issue[]>([]);
  const [conflict, setConflict] = useState<BindingView | null>(null);
  const [preview, setPreview] = useState<BindingPreview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const runChanged = !sameRun(runSettings(runDraft), base.run);
  const dirty = !sameTools(draft, base.tools) || runChanged;

  // A newer version read by the page replaces an untouched editor (never unsaved work). Adjusted
  // during render, as React advises for state derived from props, instead of an effect.
  if (binding.version > base.version && !dirty && !conflict) {
    setBase(binding);
    setDraft(binding.tools.map(normalize));
    setRunDraft(runForm(binding.run));
  }

  /** The page's list is behind the version we now know of. */
  const refreshList = () => void cache.invalidateQueries({ queryKey: queryKeys.bindings(tenantId) });

  /** An edit answers the last refusal: its issues go, and so does the refusal itself. */
  const answered = () => {
    setIssues([]);
    setError((e: unknown) => (e instanceof ApiError && e.issues.length ? null : e));
  };

  const edit = (next: BindingTool[]) => {
    setDraft(next);
    answered();
  };

  const editRun = (next: RunForm) => {
    setRunDraft(next);
    answered();
  };

  const openPreview = async () => {
    setError(null);
    try {
      const p = await previewing.mutateAsync({ tools: draft.map(normalize), run: runSettings(runDraft) });
      setIssues([...p.problems]);
      setPreview(p);
    } catch (err) {
      setError(err);
      // A body the gateway refuses outright (a rule without its reason, a mask without fields):
      // its issues go next to their fields, as a refused save's do.
      if (err instanceof ApiError && err.issues.length) setIssues(dottedIssues(err.issues));
    }
  };

  const save = async () => {
    setError(null);
    try {
      const saved = await saving.mutateAsync({
        version: base.version,
        tools: draft.map(normalize),
        description: base.description,
        run: runSettings(runDraft),
      });
      setPreview(null);
      setBase(saved);
      setDraft(saved.tools.map(normalize));
      setRunDraft(runForm(saved.run));
      setIssues([]);
      setConflict(null);
      return saved;
    } catch (err) {
      setPreview(null);
      const current =
        err instanceof ApiError && err.code === 'VERSION_CONFLICT' ? err.details?.current : null;
      if (current) {
        setConflict(current as BindingView);
      } else {
        setError(err);
        if (err instanceof ApiError && err.issues.length) setIssues(dottedIssues(err.issues));
      }
      return null;
    }
  };

  const reloadLatest = () => {
    if (!conflict) return;
    setBase(conflict);
    setDraft(conflict.tools.map(normalize));
    setRunDraft(runForm(conflict.run));
    setConflict(null);
    setIssues([]);
    setError(null);
    refreshList();
  };

  const rebase = () => {
    if (!conflict) return;
    setBase(conflict);
    setConflict(null);
    setError(null);
    refreshList();
  };

  return {
    base,
    draft,
    runDraft,
    runChanged,
    dirty,
    issues,
    conflict,
    preview,
    error,
    busy: previewing.isPending ? 'preview' : saving.isPending ? 'save' : null,
    edit,
    editRun,
    discard: () => {
      setDraft(base.tools.map(normalize));
      setRunDraft(runForm(base.run));
      setIssues([]);
    },
    openPreview,
    closePreview: () => setPreview(null),
    save,
    reloadLatest,
    rebase,
  };
}
