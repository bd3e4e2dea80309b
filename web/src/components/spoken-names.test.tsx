import { FileExcelOutlined } from '@ant-design/icons';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Alert, Button, DatePicker, Form, Input, Select, Table } from 'antd';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render';

/** Controls antd names in English by itself: an icon in a button, clear buttons, an alert's sign, a type message. */
function Controls() {
  return (
    <Form initialValues={{ email: 'ne-adresas', kind: 'a', day: dayjs('2026-11-27') }}>
      <Button icon={<FileExcelOutlined />}>Excel</Button>
      <Alert type="warning" showIcon title="Dėmesio" />
      <Form.Item name="email" label="El. paštas" rules={[{ type: 'email' }]}>
        <Input allowClear />
      </Form.Item>
      <Form.Item name="kind" label="Rūšis">
        <Select allowClear options={[{ value: 'a', label: 'A' }]} />
      </Form.Item>
      <Form.Item name="day" label="Diena">
        <DatePicker />
      </Form.Item>
      <Input.Search />
      <Button htmlType="submit">Saugoti</Button>
      <Table
        rowKey="id"
        dataSource={[{ id: 1 }, { id: 2 }, { id: 3 }]}
        columns={[{ title: 'Nr.', dataIndex: 'id' }]}
        pagination={{ pageSize: 1 }}
      />
    </Form>
  );
}

/** Every name an element is given by attribute: an icon's own name would be kebab-case English. */
const labels = () => Array.from(document.querySelectorAll('[aria-label]')).map((el) => el.getAttribute('aria-label'));

// antd's first render under jsdom is slow on a busy machine.
describe('names in the UI language (components/spoken-names.ts, providers.tsx)', { timeout: 90_000 }, () => {
  it.each([
    ['lt', 'Išvalyti', 'El. paštas: neteisingas el. pašto adresas', 'Pirmyn'],
    ['en', 'Clear', 'El. paštas: not a valid e-mail address', 'Next Page'],
  ] as const)(
    '%s: icons are hidden, clear buttons, pager arrows and type messages are translated',
    async (language, clear, email, next) => {
      await render(<Controls />, { language });
      // The button is named by its text alone, not "file-excel Excel".
      expect(await screen.findByRole('button', { name: 'Excel' })).toBeTruthy();
      await waitFor(() => expect(labels().filter((l) => /^[a-z]+(-[a-z]+)*$/.test(l ?? ''))).toEqual([]));
      expect(document.querySelectorAll('.anticon:not([aria-hidden="true"])')).toHaveLength(0);
      // Input, Select and DatePicker: each clear button is named in the UI language.
      await waitFor(() =>
        expect(
          Array.from(document.querySelectorAll('.ant-input-clear-icon, .ant-select-clear, .ant-picker-clear')).map(
            (b) => b.getAttribute('aria-label'),
          ),
        ).toEqual([clear, clear, clear]),
      );
      // A pager's arrows keep a name (their icon's is gone): the item's translated title.
      expect(await screen.findByRole('button', { name: next })).toBeTruthy();
      expect(screen.getByRole('button', { name: language === 'lt' ? 'Paieška' : 'Search' })).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: 'Saugoti' }));
      expect(await screen.findByText(email)).toBeTruthy();
    },
  );
});
