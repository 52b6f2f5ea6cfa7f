import { Alert } from 'antd';
import { ApiError } from '../../api/client';
import type { Issue } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT } from '../../i18n';
import { generalIssues } from './binding-rules';

/**
 * What stands in the way of saving: a refusal with its issues, any other error, and the issues
 * of the preview that belong to no row (row issues show next to their tool).
 */
export function EditorProblems({ issues, error }: { issues: readonly Issue[]; error: unknown }) {
  const t = useT();
  const loose = generalIssues(issues);
  return (
    <>
      {issues.length > 0 && error instanceof ApiError && error.code === 'INVALID_INPUT' ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="binding-invalid"
          title={
            issues.some((i) => /^tools\.\d+\.(?:rules|guardrails)(?:\.|$)/.test(i.path))
              ? t('bindings.rulesInvalidTitle')
              : issues.some((i) => i.path.startsWith('tools.'))
                ? t('bindings.invalidTitle')
                : t('bindings.refusedTitle')
          }
          description={issues.map((i) => (
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
    </>
  );
}
