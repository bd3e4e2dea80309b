import { declareReading, getOccupantDeclarations, uploadOccupantPhoto } from '@rodmenys/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { declare, occupantDeclarations } from '../services/declarations/declare.js';
import { cleanPhoto, storePhoto } from '../services/declarations/photo.js';
import { sendReceipt } from '../services/declarations/receipt.js';
import { createMailer } from '../services/mail/index.js';
import type { OccupantCaller } from '../services/occupant-access/sessions.js';
import { defineRoute } from './define.js';

/** The occupancy of the request's occupant session (set by the `occupant` authenticator). */
function occupantOf(request: FastifyRequest): OccupantCaller {
  if (!request.occupant) throw new Error(`${request.url} has no occupant session`);
  return request.occupant;
}

/**
 * Readings the occupant declares on their own pages (docs/declared-readings.md): the window and
 * their declared devices, a meter's photo, the declaration and its receipt.
 */
export default async function declarationRoutes(app: FastifyInstance) {
  // A photo arrives as the raw file; its type is read from the bytes, not from this header.
  app.addContentTypeParser(
    ['image/jpeg', 'image/png', 'application/octet-stream'],
    { parseAs: 'buffer' },
    (_request, body, done) => done(null, body),
  );
  const mailer = createMailer(app.config);

  defineRoute(app, getOccupantDeclarations, ({ db, request }) =>
    occupantDeclarations(db, occupantOf(request).occupancyId),
  );
  defineRoute(app, uploadOccupantPhoto, async ({ db, request }) => {
    if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw badRequest('photoNotImage', {}, 'photo');
    const photo = await cleanPhoto(request.body);
    const id = await storePhoto(db, occupantOf(request).occupancyId, photo);
    return { PhotoId: id, Mime: photo.mime, Width: photo.width, Height: photo.height };
  });
  defineRoute(app, declareReading, async ({ db, request, body }) => {
    const occupant = occupantOf(request);
    const stored = await declare(db, { occupancyId: occupant.occupancyId, sessionId: occupant.sessionId }, body);
    const emailed = await sendReceipt(db, mailer, stored.Declaration, stored.DeviceCode);
    return { Declaration: stored.Declaration, DeviceCode: stored.DeviceCode, Emailed: emailed };
  });
}
