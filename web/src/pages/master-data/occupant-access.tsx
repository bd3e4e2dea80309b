import { PrinterOutlined } from '@ant-design/icons';
import {
  OCCUPANT_CODE_PATH,
  OCCUPANT_LINK_PATH,
  type OccupancyRow,
  type ReissuedOccupantAccess,
} from '@rodmenys/contract';
import { Alert, App, Button, Descriptions, Input, Modal, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useOccupantAccess, useReissueOccupantAccess, useRevokeOccupantAccess } from '../../api/occupancies';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useConfirm, useDialogClose } from '../../components/modal-host';
import { formatDateTime } from '../../format';
import i18n from '../../i18n';
import './occupant-access.css';

/** The occupancy as the dialog needs it (an occupants card's row, or a delivery log's). */
export type AccessOccupancy = Pick<OccupancyRow, 'Id' | 'Name' | 'Language' | 'FlatId'>;

/** Where the occupant's letter sends them: the flat's address as printed on the envelope. */
export interface LetterAddress {
  /** Street and building number ("Architektų g. 3"). */
  street: string;
  city: string;
  /** The flat's number in the building. */
  flat: string;
}

/** The code page under the same public address as the new link (PUBLIC_URL, else this server). */
const codePageOf = (link: string) => {
  const at = link.indexOf(`${OCCUPANT_LINK_PATH}#`);
  return `${at < 0 ? new URL(link).origin : link.slice(0, at)}${OCCUPANT_CODE_PATH}`;
};

/**
 * One occupant's letter with the new code, in the occupancy's language, for the printer only: put
 * at the end of the page so that the print styles can show it alone (occupant-access.css).
 */
function Letter({
  occupancy,
  address,
  reissued,
}: {
  occupancy: AccessOccupancy;
  address: LetterAddress | null;
  reissued: ReissuedOccupantAccess;
}) {
  const t = i18n.getFixedT(occupancy.Language ?? 'lt');
  const url = codePageOf(reissued.Link);
  return createPortal(
    <div className="occupant-letter" aria-hidden="true" lang={occupancy.Language ?? 'lt'}>
      <div className="occupant-letter-address">
        <div>{occupancy.Name}</div>
        {address && <div>{`${address.street}-${address.flat}`}</div>}
        {address && <div>{address.city}</div>}
      </div>
      <h1>{t('occupantAccess.letter.title')}</h1>
      {address && <p>{`${t('occupantAccess.letter.flat')} ${address.flat}`}</p>}
      <p>{t('occupantAccess.letter.intro')}</p>
      <p>{t('occupantAccess.letter.step1', { url, interpolation: { escapeValue: false } })}</p>
      <p>{t('occupantAccess.letter.step2', { number: occupancy.FlatId })}</p>
      <p className="occupant-letter-code">{reissued.LetterCode}</p>
      <p>{t('occupantAccess.letter.replaces')}</p>
    </div>,
    document.body,
  );
}

/** The new link and code, shown once, with the copy and print buttons; the code field takes the focus. */
function Reissued({
  occupancy,
  address,
  reissued,
}: {
  occupancy: AccessOccupancy;
  address: LetterAddress | null;
  reissued: ReissuedOccupantAccess;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const code = useRef<HTMLInputElement>(null);
  useEffect(() => code.current?.focus(), []);
  const copy = async () => {
    await navigator.clipboard?.writeText(reissued.Link);
    message.success(t('occupantAccess.copied'));
  };
  return (
    <section aria-labelledby="occupant-access-new" style={{ marginTop: 16 }}>
      <Typography.Title level={3} id="occupant-access-new" style={{ fontSize: 16 }}>
        {t('occupantAccess.newTitle')}
      </Typography.Title>
      <Alert type="warning" showIcon title={t('occupantAccess.shownOnce')} style={{ marginBottom: 12 }} />
      <label htmlFor="occupant-access-code">{t('occupantAccess.newCode')}</label>
      <Input
        id="occupant-access-code"
        ref={(el) => {
          code.current = el?.input ?? null;
        }}
        readOnly
        value={reissued.LetterCode}
        className="occupant-access-code"
        onFocus={(e) => e.target.select()}
        style={{ marginBottom: 12 }}
      />
      <label htmlFor="occupant-access-link">{t('occupantAccess.newLink')}</label>
      <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
        <Input id="occupant-access-link" readOnly value={reissued.Link} onFocus={(e) => e.target.select()} />
        <Button onClick={() => void copy()}>{t('occupantAccess.copy')}</Button>
      </Space.Compact>
      <Button type="primary" icon={<PrinterOutlined aria-hidden />} onClick={() => window.print()}>
        {t('occupantAccess.print')}
      </Button>
      <Letter occupancy={occupancy} address={address} reissued={reissued} />
    </section>
  );
}

/**
 * An occupancy's link and letter code (docs/occupant-access.md, "The back office"): whether they
 * are live and since when, revoke, reissue (the new ones shown once, with a printable letter).
 * The server audits both and answers 404 outside the caller's scope.
 */
export function OccupantAccessDialog({
  occupancy,
  address,
  onClose,
}: {
  occupancy: AccessOccupancy;
  address: LetterAddress | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const confirm = useConfirm();
  const access = useOccupantAccess(occupancy.Id);
  const revoke = useRevokeOccupantAccess();
  const reissue = useReissueOccupantAccess();
  const [reissued, setReissued] = useState<ReissuedOccupantAccess | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { close, modalProps } = useDialogClose(onClose);
  const params = { params: { id: occupancy.Id } };

  const run = async (question: string, action: () => Promise<unknown>, done: string) => {
    if (!(await confirm({ title: question, okText: t('common.ok') }))) return;
    setFailure(null);
    try {
      await action();
      message.success(done);
    } catch (error) {
      setFailure(errorText(error));
    }
  };
  const a = access.data;
  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={t('occupantAccess.title', { name: occupancy.Name })}
      onCancel={() => close()}
      width={600}
      footer={<Button onClick={() => close()}>{t('common.close')}</Button>}
    >
      <Typography.Paragraph type="secondary">{t('occupantAccess.help')}</Typography.Paragraph>
      {access.error && <LoadError error={access.error} onRetry={() => void access.refetch()} />}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 12 }} />}
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          {
            key: 'links',
            label: t('occupantAccess.links'),
            children: !a
              ? '…'
              : a.ActiveLinks > 0
                ? t('occupantAccess.linksLive', { count: a.ActiveLinks, at: formatDateTime(a.LastLinkIssuedAt) })
                : t('occupantAccess.linksNone'),
          },
          {
            key: 'code',
            label: t('occupantAccess.code'),
            children: !a
              ? '…'
              : a.LetterCodeIssuedAt
                ? t('occupantAccess.codeLive', { at: formatDateTime(a.LetterCodeIssuedAt) })
                : t('occupantAccess.codeNone'),
          },
          {
            key: 'until',
            label: t('occupantAccess.until'),
            children: !a ? '…' : (a.AccessUntil ?? t('occupantAccess.untilOpen')),
          },
          {
            key: 'signIn',
            label: t('occupantAccess.lastSignIn'),
            children: !a ? '…' : a.LastSignInAt ? formatDateTime(a.LastSignInAt) : t('occupantAccess.never'),
          },
        ]}
      />
      <Space style={{ marginTop: 16 }} wrap>
        <Button
          danger
          loading={revoke.isPending}
          disabled={!a}
          onClick={() =>
            void run(
              t('occupantAccess.revokeConfirm', { name: occupancy.Name }),
              async () => {
                await revoke.mutateAsync(params);
                setReissued(null);
              },
              t('occupantAccess.revoked'),
            )
          }
        >
          {t('occupantAccess.revoke')}
        </Button>
        <Button
          loading={reissue.isPending}
          disabled={!a}
          onClick={() =>
            void run(
              t('occupantAccess.reissueConfirm', { name: occupancy.Name }),
              async () => setReissued(await reissue.mutateAsync(params)),
              t('occupantAccess.reissued'),
            )
          }
        >
          {t('occupantAccess.reissue')}
        </Button>
      </Space>
      {reissued && <Reissued key={reissued.Token} occupancy={occupancy} address={address} reissued={reissued} />}
    </Modal>
  );
}
