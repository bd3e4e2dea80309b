import { DECLARATION_PHOTO_MAX_BYTES } from '@rodmenys/contract';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import type { Queryable } from '../../db/db.js';
import { badRequest, HttpError } from '../../errors.js';

/**
 * A meter's photo for a declaration (docs/declared-readings.md): JPEG or PNG by its content (the
 * name and the declared content type do not count), at most 5 MB and 40 million pixels (a
 * decompression bomb is refused before it is decoded), re-encoded so that nothing but the pixels
 * is kept: EXIF (GPS), XMP, ICC profiles and comments are gone, and so is anything appended after
 * the image (a polyglot). Large photos are scaled to at most PHOTO_MAX_SIDE pixels a side.
 */

/** The most pixels a photo may have (a 40-megapixel camera). */
export const PHOTO_MAX_PIXELS = 40_000_000;
/** The longest side of a stored photo. */
export const PHOTO_MAX_SIDE = 2560;

export interface CleanPhoto {
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  bytes: Buffer;
}

/** Checks and re-encodes a photo; a 400 (or 413) naming the problem when it is not one we keep. */
export async function cleanPhoto(input: Buffer): Promise<CleanPhoto> {
  if (input.length > DECLARATION_PHOTO_MAX_BYTES) {
    throw new HttpError(413, 'photoTooLarge', { max: String(DECLARATION_PHOTO_MAX_BYTES / 1024 / 1024) });
  }
  const type = await fileTypeFromBuffer(input);
  if (type?.mime !== 'image/jpeg' && type?.mime !== 'image/png') throw badRequest('photoNotImage', {}, 'photo');
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest('photoNotImage', {}, 'photo');
  }
  if ((meta.format !== 'jpeg' && meta.format !== 'png') || !meta.width || !meta.height) {
    throw badRequest('photoNotImage', {}, 'photo');
  }
  if (meta.width * meta.height > PHOTO_MAX_PIXELS) {
    throw badRequest('photoTooManyPixels', { max: String(PHOTO_MAX_PIXELS / 1e6) }, 'photo');
  }
  try {
    // rotate(): the EXIF orientation applied to the pixels, as the metadata that said it goes.
    const image = sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    const mime = meta.format === 'png' ? 'image/png' : 'image/jpeg';
    const { data, info } = await (mime === 'image/png' ? image.png() : image.jpeg({ quality: 85 })).toBuffer({
      resolveWithObject: true,
    });
    return { mime, width: info.width, height: info.height, bytes: data };
  } catch {
    throw badRequest('photoNotImage', {}, 'photo');
  }
}

/** Stores a cleaned photo as the occupancy's personal data; returns its id. */
export async function storePhoto(db: Queryable, occupancyId: number, photo: CleanPhoto): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO declaration_photo (occupancy_id, mime, width, height, bytes) VALUES ($1, $2, $3, $4, $5)
     RETURNING id`,
    [occupancyId, photo.mime, photo.width, photo.height, photo.bytes],
  );
  return rows[0]!.id;
}
