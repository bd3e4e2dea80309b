import { screen } from '@testing-library/react';
import { Table } from 'antd';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render';
import { usePagerNames } from './pagination';

const rows = Array.from({ length: 300 }, (_, i) => ({ id: i + 1 }));

function Long() {
  const pager = usePagerNames();
  return (
    <Table
      rowKey="id"
      dataSource={rows}
      columns={[{ title: 'Nr.', dataIndex: 'id' }]}
      pagination={{ ...pager, pageSize: 10, defaultCurrent: 10 }}
    />
  );
}

// docs/accessibility.md, "Names in the UI language": the pager's jumps are named by their text, never by
// an aria-label on the link without an address or the list item that hold them (axe: aria-prohibited-attr).
describe('a pager with jumps of 5 pages', { timeout: 90_000 }, () => {
  it('names each jump by its hidden text in the UI language, with no aria-label inside', async () => {
    await render(<Long />);
    await screen.findByText('Nr.');
    for (const [selector, name] of [
      ['.ant-pagination-jump-next', 'Kiti 5 puslapiai'],
      ['.ant-pagination-jump-prev', 'Ankstesni 5 puslapiai'],
    ] as const) {
      const jump = document.querySelector(selector);
      expect(jump, selector).not.toBeNull();
      expect(jump!.querySelectorAll('[aria-label]')).toHaveLength(0);
      expect(jump!.querySelector('.visually-hidden')?.textContent).toBe(name);
      expect(jump!.querySelector('.ant-pagination-item-container')?.closest('[aria-hidden="true"]')).not.toBeNull();
    }
  });
});
