import {
  FLAT_AREA_MAX,
  getLocation,
  LOCATION_LEVEL,
  type LocationNode,
  listLocationChildren,
  type MasterDevice,
} from '@rodmenys/contract';
import {
  App,
  Breadcrumb,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Form,
  type GetRef,
  Input,
  Row,
  Space,
  Table,
  Tag,
  Tree,
  Typography,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { useDeviceTypes } from '../../api/devices';
import { useLocation, useUpdateLocation } from '../../api/master-data';
import { LoadError, useErrorText } from '../../components/load-error';
import { NumberInput, useNumberRule } from '../../components/number-field';
import { formatDateTime, formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';
import { type DeviceDialog, DeviceDialogs } from './device-dialogs';
import { HeatMethodCard } from './heat-method-card';
import { LocationSearch } from './location-search';
import type { LetterAddress } from './occupant-access';
import { OccupantsCard } from './occupants-card';

/** A flat's address for a letter: its street and building number, its city, its number. */
const letterAddress = (ancestors: readonly { Level: number; Name: string }[], flat: string): LetterAddress => {
  const named = (level: number) => ancestors.find((a) => a.Level === level)?.Name ?? '';
  return {
    street: [named(LOCATION_LEVEL.street), named(LOCATION_LEVEL.building)].filter(Boolean).join(' '),
    city: named(LOCATION_LEVEL.city),
    flat,
  };
};

interface Node extends DataNode {
  key: number;
  level: number;
  children?: Node[];
}

const toNode = (l: LocationNode): Node => ({
  key: l.Id,
  title: l.Level === LOCATION_LEVEL.building && l.ObjectCode ? `${l.Name} (${l.ObjectCode})` : l.Name,
  level: l.Level,
  isLeaf: l.ChildCount === 0,
});

/** The tree with the node `key` changed by `patch` (its loaded children, its new title). */
const patched = (nodes: Node[], key: number, patch: Partial<Node>): Node[] =>
  nodes.map((n) =>
    n.key === key ? { ...n, ...patch } : n.children ? { ...n, children: patched(n.children, key, patch) } : n,
  );

/** The node `key` of the tree, if loaded. */
const findNode = (nodes: Node[] | undefined, key: number): Node | undefined => {
  for (const n of nodes ?? []) {
    if (n.key === key) return n;
    const inside = findNode(n.children, key);
    if (inside) return inside;
  }
  return undefined;
};

/**
 * The location tree (loaded level by level, or down to a location found by address) and the
 * chosen location's details, client and devices.
 */
export function LocationPanel() {
  const { t } = useTranslation();
  const [nodes, setNodes] = useState<Node[]>([]);
  const [selected, setSelected] = useState<number | undefined>();
  const [treeError, setTreeError] = useState<unknown>(null);

  const loadRoots = () =>
    call(listLocationChildren, { query: {} })
      .then((rows) => {
        setNodes(rows.map(toNode));
        setTreeError(null);
      })
      .catch(setTreeError);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the roots load once
  useEffect(() => {
    void loadRoots();
  }, []);
  const [expanded, setExpanded] = useState<number[]>([]);
  const tree = useRef<GetRef<typeof Tree>>(null);
  const loadChildren = async (node: Node) => {
    if (node.children) return;
    const rows = await call(listLocationChildren, { query: { parentId: node.key } });
    setNodes((current) => patched(current, node.key, { children: rows.map(toNode) }));
  };
  /** Opens the tree down to a found location (loading the levels not yet loaded) and chooses it. */
  const reveal = async (found: LocationNode) => {
    setSelected(found.Id);
    const { Ancestors } = await call(getLocation, { params: { id: found.Id } });
    let current = nodes;
    for (const a of Ancestors) {
      const node = findNode(current, a.Id);
      if (node && !node.children) {
        const rows = await call(listLocationChildren, { query: { parentId: a.Id } });
        current = patched(current, a.Id, { children: rows.map(toNode) });
      }
    }
    setNodes(current);
    setExpanded((keys) => [...new Set([...keys, ...Ancestors.map((a) => a.Id)])]);
    // After the opened levels are drawn.
    setTimeout(() => tree.current?.scrollTo({ key: found.Id, align: 'top' }), 0);
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <Card title={t('masterData.tree.browse')} size="small">
          <LocationSearch onPick={(found) => void reveal(found)} />
          {treeError ? <LoadError error={treeError} onRetry={loadRoots} /> : null}
          <Tree<Node>
            ref={tree}
            treeData={nodes}
            loadData={loadChildren}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys as number[])}
            selectedKeys={selected ? [selected] : []}
            onSelect={(keys) => setSelected(keys[0] as number | undefined)}
            height={600}
          />
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        {selected ? (
          <LocationDetails id={selected} onRenamed={(title) => setNodes((n) => patched(n, selected, { title }))} />
        ) : (
          <Empty description={t('masterData.tree.pick')} />
        )}
      </Col>
    </Row>
  );
}

function LocationDetails({ id, onRenamed }: { id: number; onRenamed: (title: string) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const types = useDeviceTypes();
  /** A device type by its name in the UI language (its number until the names arrive). */
  const typeName = (typeId: number) => {
    const type = types.data?.find((ty) => ty.Id === typeId);
    return type ? (language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName) : String(typeId);
  };
  const { message } = App.useApp();
  const errorText = useErrorText();
  const detail = useLocation(id);
  const updateLocation = useUpdateLocation();
  const [dialog, setDialog] = useState<DeviceDialog | null>(null);
  const rule = useNumberRule();
  const [nameForm] = Form.useForm<{ name: string; flatOrder: number | null; areaM2: number | null }>();
  const location = detail.data?.Location;
  useEffect(() => {
    if (location) {
      nameForm.setFieldsValue({ name: location.Name, flatOrder: location.FlatOrder, areaM2: location.AreaM2 });
    }
  }, [location, nameForm]);

  if (detail.error) return <LoadError error={detail.error} onRetry={() => detail.refetch()} />;
  if (!detail.data || !location) return <Card loading />;
  const isFlat = location.Level === LOCATION_LEVEL.flat;
  const codeOf = (deviceId: number | null) =>
    detail.data.Devices.find((d) => d.DeviceId === deviceId)?.DeviceCode ?? String(deviceId);

  const saveName = async (v: { name: string; flatOrder: number | null; areaM2: number | null }) => {
    try {
      const saved = await updateLocation.mutateAsync({
        params: { id },
        body: {
          name: v.name.trim(),
          ...(isFlat ? { flatOrder: v.flatOrder ?? null, areaM2: v.areaM2 ?? null } : {}),
        },
      });
      onRenamed(saved.Name);
      message.success(t('masterData.tree.saved'));
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Breadcrumb items={[...detail.data.Ancestors, location].map((a) => ({ title: 'Name' in a ? a.Name : '' }))} />
      <Card size="small" title={`${t(`masterData.tree.levels.${location.Level}`)}: ${location.Name}`}>
        <Descriptions size="small" column={1}>
          {location.ObjectCode && (
            <Descriptions.Item label={t('masterData.tree.object')}>
              {location.ObjectCode} {location.ObjectName}
            </Descriptions.Item>
          )}
          {isFlat && (
            <Descriptions.Item label={t('masterData.tree.client')}>
              {location.ClientCode
                ? `${location.ClientCode} ${location.ClientName ?? ''}`
                : t('masterData.tree.noClient')}
            </Descriptions.Item>
          )}
        </Descriptions>
        <Form form={nameForm} layout="inline" onFinish={saveName} style={{ marginBottom: 12 }}>
          <Form.Item name="name" label={t('masterData.tree.name')} rules={[{ required: true, whitespace: true }]}>
            <Input maxLength={200} />
          </Form.Item>
          {isFlat && (
            <Form.Item
              name="flatOrder"
              label={t('masterData.tree.flatOrder')}
              rules={[rule({ min: -2147483648, max: 2147483647, integer: true })]}
            >
              <NumberInput style={{ width: 120 }} />
            </Form.Item>
          )}
          {isFlat && (
            <Form.Item
              name="areaM2"
              label={t('masterData.tree.area')}
              rules={[rule({ min: 0.01, max: FLAT_AREA_MAX, decimals: 2 })]}
            >
              <NumberInput step={0.01} style={{ width: 120 }} />
            </Form.Item>
          )}
          <Button htmlType="submit" loading={updateLocation.isPending}>
            {isFlat ? t('common.save') : t('masterData.tree.rename')}
          </Button>
        </Form>
      </Card>
      {location.Level === LOCATION_LEVEL.building && <HeatMethodCard buildingId={id} canEdit />}
      {isFlat && <OccupantsCard flatId={id} address={letterAddress(detail.data.Ancestors, location.Name)} />}
      {location.Level >= LOCATION_LEVEL.building && (
        <Card
          size="small"
          title={t('masterData.tree.devices')}
          extra={
            <Button onClick={() => setDialog({ kind: 'add', locationId: id, level: location.Level })}>
              {t('masterData.tree.addDevice')}
            </Button>
          }
        >
          <Table<MasterDevice>
            size="small"
            rowKey="DeviceId"
            pagination={false}
            dataSource={detail.data.Devices}
            scroll={{ x: true }}
            columns={[
              {
                title: t('masterData.device.serial'),
                dataIndex: 'DeviceCode',
                // A LoRaWAN meter's DevEUI under its serial (docs/lorawan.md).
                render: (code: string, d) =>
                  d.DevEui ? (
                    <>
                      {code}
                      <br />
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        DevEUI <code>{d.DevEui}</code>
                      </Typography.Text>
                    </>
                  ) : (
                    code
                  ),
              },
              {
                title: t('masterData.device.type'),
                dataIndex: 'DeviceTypeId',
                // A building-level role (docs/heat-method.md, "Devices") after the type's name.
                render: (typeId: number, d: MasterDevice) =>
                  d.Role ? `${typeName(typeId)}: ${t(`masterData.device.roles.${d.Role}`)}` : typeName(typeId),
              },
              { title: t('masterData.device.model'), dataIndex: 'Model' },
              { title: t('masterData.device.description'), dataIndex: 'DeviceDescription' },
              {
                title: t('masterData.device.ratingFactor'),
                dataIndex: 'RatingFactor',
                align: 'right',
                render: (v: number | null) => formatDecimal(v, language),
              },
              { title: t('masterData.device.installedAt'), dataIndex: 'InstalledAt', render: formatDateTime },
              {
                title: t('masterData.device.removedAt'),
                render: (_, d) => (
                  <Space direction="vertical" size={0}>
                    {formatDateTime(d.RemovedAt)}
                    {d.ReplacedBy && (
                      <Tag color="orange">{t('masterData.device.replacedBy', { code: codeOf(d.ReplacedBy) })}</Tag>
                    )}
                    {d.Replaces && (
                      <Tag color="blue">{t('masterData.device.replaces', { code: codeOf(d.Replaces) })}</Tag>
                    )}
                  </Space>
                ),
              },
              {
                title: t('common.actions'),
                key: 'actions',
                // In view whatever the width: the other columns scroll under it.
                fixed: 'right',
                render: (_, d) =>
                  d.RemovedAt ? (
                    <Button size="small" type="link" onClick={() => setDialog({ kind: 'edit', device: d })}>
                      {t('masterData.device.edit')}
                    </Button>
                  ) : (
                    <Space size={0}>
                      <Button size="small" type="link" onClick={() => setDialog({ kind: 'edit', device: d })}>
                        {t('masterData.device.edit')}
                      </Button>
                      <Button size="small" type="link" onClick={() => setDialog({ kind: 'replace', device: d })}>
                        {t('masterData.device.replace')}
                      </Button>
                      <Button size="small" type="link" danger onClick={() => setDialog({ kind: 'remove', device: d })}>
                        {t('masterData.device.remove')}
                      </Button>
                    </Space>
                  ),
              },
            ]}
          />
        </Card>
      )}
      <DeviceDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </Space>
  );
}
