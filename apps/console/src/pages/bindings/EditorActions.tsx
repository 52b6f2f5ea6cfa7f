import { EyeOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Select, Space } from 'antd';
import type { CatalogTool } from '../../api/types';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';

/** Below the tools: add a tool of the catalog, discard the edits, preview and save. */
export function EditorActions(props: {
  /** Catalog tools not in the draft yet. */
  available: readonly CatalogTool[];
  dirty: boolean;
  previewing: boolean;
  onAdd: (name: string) => void;
  onDiscard: () => void;
  onPreview: () => void;
}) {
  const t = useT();
  return (
    <Space wrap style={{ marginTop: 16, width: '100%', justifyContent: 'space-between' }}>
      <Select
        showSearch={{ optionFilterProp: 'value' }}
        value={null}
        style={{ width: 360 }}
        placeholder={t('bindings.addToolPlaceholder')}
        onChange={props.onAdd}
        data-testid="add-tool"
        options={props.available.map((c) => ({
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
        <Button icon={<UndoOutlined />} disabled={!props.dirty} onClick={props.onDiscard}>
          {t('bindings.discard')}
        </Button>
        <Button
          type="primary"
          icon={<EyeOutlined />}
          loading={props.previewing}
          onClick={props.onPreview}
          data-testid="preview-save"
        >
          {t('bindings.previewAndSave')}
        </Button>
      </Space>
    </Space>
  );
}
