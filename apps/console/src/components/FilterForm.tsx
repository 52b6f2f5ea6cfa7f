import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useT } from '../i18n';

/**
 * A list's filters in one row, with Search and Reset: Search submits the form's values, Reset
 * blanks the fields and searches with no filter.
 */
export function FilterForm<Values extends object>(props: {
  form: FormInstance<Values>;
  blank: Values;
  onSearch: (values: Values) => void;
  onReset: () => void;
  /** `${testId}-filters` on the form, `${testId}-search` on its button. */
  testId: string;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <Form<Values>
      form={props.form}
      layout="inline"
      onFinish={props.onSearch}
      style={{ rowGap: 12, marginBottom: 16 }}
      data-testid={`${props.testId}-filters`}
    >
      {props.children}
      <Form.Item>
        <Space>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SearchOutlined />}
            data-testid={`${props.testId}-search`}
          >
            {t('common.search')}
          </Button>
          <Button
            onClick={() => {
              props.form.setFieldsValue(props.blank as Parameters<FormInstance<Values>['setFieldsValue']>[0]);
              props.onReset();
            }}
          >
            {t('common.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
