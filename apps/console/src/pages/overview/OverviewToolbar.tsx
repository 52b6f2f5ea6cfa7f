import { ReloadOutlined } from '@ant-design/icons';
import { Button, Segmented, Space } from 'antd';
import { useT } from '../../i18n';
import type { GroupBy } from './stats-series';
import { RANGE_KEYS, type RangeKey } from './useOverviewStats';

/** The range, the grouping and a refresh (which moves the range's end to now). */
export function OverviewToolbar(props: {
  rangeKey: RangeKey;
  groupBy: GroupBy;
  onRange: (key: RangeKey) => void;
  onGroupBy: (groupBy: GroupBy) => void;
  onRefresh: () => void;
}) {
  const t = useT();
  return (
    <Space wrap>
      <Segmented<RangeKey>
        value={props.rangeKey}
        onChange={props.onRange}
        options={RANGE_KEYS.map((k) => ({ value: k, label: t(`overview.range.${k}`) }))}
      />
      <Segmented<GroupBy>
        value={props.groupBy}
        onChange={props.onGroupBy}
        options={[
          { value: 'tenant', label: t('overview.groupBy.tenant') },
          { value: 'tool', label: t('overview.groupBy.tool') },
        ]}
      />
      <Button icon={<ReloadOutlined />} onClick={props.onRefresh}>
        {t('common.refresh')}
      </Button>
    </Space>
  );
}
