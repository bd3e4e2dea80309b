// Frozen copy of server/src/publication.ts at commit 56f68cb, for bench:statements only.
import { queueBillingNotices } from '@rodmenys/server/services/billing/receivers.js';
import { queueOccupantDeliveries } from '@rodmenys/server/services/deliveries/queue.js';
import type { PublicationFollower } from './followers.js';
import { billingExportDiffers, freezeBillingExport } from './snapshot.js';

/**
 * What follows every publication of statements, in its transaction (docs/statements.md,
 * "Publishing"). The features built on the statements are listed here, above both, so that
 * publishing never imports them (docs/ARCHITECTURE.md, "Imports run downhill").
 */
export const PUBLICATION_FOLLOWERS: readonly PublicationFollower[] = [
  // The billing export of each version, frozen with it, and its receivers told (docs/integration.md).
  {
    building: freezeBillingExport,
    differs: billingExportDiffers,
    published: async (tx, month, buildings) => {
      if (buildings.length) await queueBillingNotices(tx, month, buildings);
    },
  },
  // Each occupant of the buildings published: an e-mail notice or a letter (docs/delivery.md); not
  // again for a version whose statements read as before (only the billing export changed).
  {
    published: async (tx, month, buildings) => {
      await queueOccupantDeliveries(
        tx,
        month,
        buildings.filter((b) => b.figuresChanged),
      );
    },
  },
];
