import { Tag } from 'antd';
import type { UpstreamToolStatus } from '../../api/types';
import { useT } from '../../i18n';

const COLORS: Readonly<Record<UpstreamToolStatus, string>> = {
  active: 'success',
  quarantined: 'red',
  removed: 'default',
};

/** Where an imported tool stands; quarantined in red so a rug pull is the first thing seen. */
export function ToolStatusTag({ status }: { status: UpstreamToolStatus }) {
  const t = useT();
  return (
    <Tag color={COLORS[status]} data-status={status} data-testid="tool-status">
      {t(`upstreams.status.${status}`)}
    </Tag>
  );
}
