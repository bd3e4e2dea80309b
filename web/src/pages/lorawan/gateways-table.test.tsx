import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { render } from '../../test/render';
import { GatewaysTable } from './gateways-table';

const SEEN = '2026-12-07T09:00:00+02:00';

const cells = (tr: Element | null) => [...(tr?.querySelectorAll('th, td') ?? [])].map((c) => c.textContent?.trim());
/** The header's cells, then each row's, as text. */
const table = (region: HTMLElement) => [
  cells(region.querySelector('thead tr')),
  ...[...region.querySelectorAll('tbody tr.ant-table-row')].map(cells),
];

// antd's first render under jsdom is slow on a busy machine.
describe("the gateways table of a connection's and a device's health", { timeout: 90_000 }, () => {
  it("shows a connection's gateways with the devices each heard, under its heading, scrollable by keyboard (lt)", async () => {
    await render(
      <GatewaysTable
        of="connection"
        gateways={[{ GatewayId: '0016c001ff10a235', LastSeen: SEEN, Devices: 3, Uplinks: 60 }]}
      />,
    );
    expect(screen.getByRole('heading', { level: 3, name: 'Bazinės stotys' })).toBeTruthy();
    const region = screen.getByRole('region', { name: 'Bazinės stotys' });
    expect(region.tabIndex).toBe(0);
    expect(table(region)).toEqual([
      ['Bazinė stotis', 'Paskutinį kartą girdėta', 'Prietaisai, 24 val.', 'Paketai, 24 val.'],
      ['0016c001ff10a235', '2026-12-07 09:00', '3', '60'],
    ]);
  });

  it("shows a device's gateways with its signal at each, an unknown one as a dash (en)", async () => {
    await render(
      <GatewaysTable
        of="device"
        gateways={[
          { GatewayId: '0016c001ff10a235', LastSeen: SEEN, Rssi: -97.4, Snr: 6.5, Uplinks: 12 },
          { GatewayId: 'b827ebfffe61f7a1', LastSeen: SEEN, Rssi: null, Snr: null, Uplinks: 1 },
        ]}
      />,
      { language: 'en' },
    );
    const region = screen.getByRole('region', { name: 'Gateways' });
    expect(table(region)).toEqual([
      ['Gateway', 'Last seen', 'RSSI', 'SNR', 'Uplinks, 24 h'],
      ['0016c001ff10a235', '2026-12-07 09:00', '-97 dBm', '6.5 dB', '12'],
      ['b827ebfffe61f7a1', '2026-12-07 09:00', '—', '—', '1'],
    ]);
  });

  it('says when no gateway heard anything yet (en)', async () => {
    await render(<GatewaysTable of="connection" gateways={[]} />, { language: 'en' });
    const heading = screen.getByRole('heading', { name: 'Gateways' });
    expect(heading).toBeTruthy();
    expect(within(document.body).getByText('No gateway heard yet')).toBeTruthy();
  });
});
