import { LOCATION_LEVEL, type User } from '@rodmenys/contract';
import { Alert, App, Modal, Skeleton, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocationTree } from '../../api/location-data';
import { useSetUserRights, useUserRights } from '../../api/users';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../components/modal-host';
import { useAllowClear } from '../../components/use-clear';

/** Deepest level offered when granting: buildings (a right covers the whole subtree). */
const GRANT_MAX_LEVEL = LOCATION_LEVEL.building;

/**
 * Grants or revokes a user's location rights: buildings or whole areas picked from the
 * location tree. Saving replaces the user's set.
 */
export function RightsModal({ user, onClose }: { user: User; onClose: () => void }) {
  const { close, modalProps } = useDialogClose(onClose);
  const { t } = useTranslation();
  const allowClear = useAllowClear();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const rights = useUserRights(user.Id);
  const tree = useLocationTree(GRANT_MAX_LEVEL);
  const save = useSetUserRights();
  // A refusal is said in the dialog (docs/accessibility.md), never behind its backdrop.
  const [refusal, setRefusal] = useState<string | null>(null);
  // The user's rights until the first change in the picker.
  const [edited, setEdited] = useState<number[] | null>(null);
  const selected = edited ?? rights.data?.map((r) => r.LocationId) ?? null;

  const treeData = useMemo(() => {
    const byId = new Map((tree.data ?? []).map((n) => [n.Id, n]));
    // The chosen tags show the whole path (a street name alone is ambiguous).
    const pathOf = (id: number): string => {
      const names: string[] = [];
      for (let n = byId.get(id); n; n = n.ParentId ? byId.get(n.ParentId) : undefined) names.unshift(n.Name);
      return names.slice(1).join(', ');
    };
    const nodes = (tree.data ?? []).map((n) => ({
      id: n.Id,
      pId: n.ParentId ?? 0,
      value: n.Id,
      title: `${n.Name} · ${t(`levels.${n.Level}`)}`,
      label: n.Level === LOCATION_LEVEL.country ? n.Name : pathOf(n.Id),
      isLeaf: n.Level >= GRANT_MAX_LEVEL,
    }));
    // A right the caller cannot see in its own tree still shows (by its path) and can be removed.
    const known = new Set(nodes.map((n) => n.id));
    for (const r of rights.data ?? []) {
      if (!known.has(r.LocationId)) {
        nodes.push({ id: r.LocationId, pId: 0, value: r.LocationId, title: r.Path, label: r.Path, isLeaf: true });
      }
    }
    return nodes;
  }, [tree.data, rights.data, t]);

  const submit = async () => {
    setRefusal(null);
    try {
      await save.mutateAsync({ params: { id: user.Id }, body: { locationIds: selected ?? [] } });
      message.success(t('rights.saved'));
      close();
    } catch (error) {
      setRefusal(errorText(error));
    }
  };

  const failed = rights.error ?? tree.error;
  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={t('rights.title', { name: `${user.FirstName} ${user.LastName}` })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: selected === null }}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={() => close()}
      width={640}
    >
      <Typography.Paragraph type="secondary">{t('rights.help')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} />}
      {failed && (
        <LoadError
          error={failed}
          onRetry={() => {
            void rights.refetch();
            void tree.refetch();
          }}
        />
      )}
      {!failed && (selected === null || !tree.data) && <Skeleton active />}
      {!failed && selected !== null && tree.data && (
        <>
          <TreeSelect
            aria-label={t('rights.locations')}
            style={{ width: '100%' }}
            treeDataSimpleMode
            treeNodeLabelProp="label"
            treeData={treeData}
            value={selected}
            onChange={(value: number[]) => setEdited(value)}
            multiple
            showSearch={{ treeNodeFilterProp: 'title' }}
            allowClear={allowClear}
            placeholder={t('rights.placeholder')}
            listHeight={360}
          />
          {selected.length === 0 && <Alert type="info" showIcon title={t('rights.none')} style={{ marginTop: 12 }} />}
        </>
      )}
    </Modal>
  );
}
