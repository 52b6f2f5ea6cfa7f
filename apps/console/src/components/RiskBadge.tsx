import { Tag } from 'antd';
import type { RiskLevel } from '../api/types';
import { useT } from '../i18n';

/** L0 green, L1 blue, L2 orange, L3 red: one colour per risk level everywhere in the console. */
export const RISK_COLORS: Readonly<Record<RiskLevel, string>> = {
  L0: 'green',
  L1: 'blue',
  L2: 'orange',
  L3: 'red',
};

export function RiskBadge({
  level,
  short = false,
}: {
  level: RiskLevel | null | undefined;
  short?: boolean;
}) {
  const t = useT();
  if (!level) return null;
  return (
    <Tag color={RISK_COLORS[level]} data-risk={level}>
      {short ? level : t(`risk.${level}`)}
    </Tag>
  );
}
