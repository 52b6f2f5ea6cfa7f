import { Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useT } from '../../i18n';
import { sideBySide, type DiffCell } from './line-diff';

const cellStyle = (cell: DiffCell | null, side: 'left' | 'right'): CSSProperties => ({
  padding: '0 8px',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  verticalAlign: 'top',
  width: '50%',
  background: !cell
    ? 'rgba(0,0,0,0.03)'
    : cell.changed
      ? side === 'left'
        ? '#fff1f0'
        : '#f6ffed'
      : undefined,
});

function Cell({ cell, side }: { cell: DiffCell | null; side: 'left' | 'right' }) {
  return (
    <td style={cellStyle(cell, side)} data-side={side} data-changed={cell?.changed ? 'true' : undefined}>
      {cell ? `${cell.changed ? (side === 'left' ? '− ' : '+ ') : '  '}${cell.text}` : ''}
    </td>
  );
}

/** The pinned text beside the pending one, changed lines tinted (red: only pinned, green: only new). */
export function LineDiff(props: { field: string; before: string; after: string }) {
  const t = useT();
  const rows = sideBySide(props.before, props.after);
  return (
    <div
      style={{ border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6, maxHeight: 360, overflow: 'auto' }}
      data-testid="field-diff"
      data-field={props.field}
    >
      <table
        style={{
          width: '100%',
          borderCollapse: 'collapse',
          fontFamily: 'monospace',
          fontSize: 12,
          lineHeight: 1.6,
        }}
      >
        <thead>
          <tr>
            <th style={{ textAlign: 'left', padding: '4px 8px' }}>
              <Typography.Text type="secondary">{t('upstreams.diff.pinned')}</Typography.Text>
            </th>
            <th style={{ textAlign: 'left', padding: '4px 8px' }}>
              <Typography.Text type="secondary">{t('upstreams.diff.pending')}</Typography.Text>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <Cell cell={row.left} side="left" />
              <Cell cell={row.right} side="right" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
