import { OCCUPANT_CODE_PATH, OCCUPANT_LINK_PATH } from '@rodmenys/contract';

/** The occupant's pages' addresses: the code page and the link's landing are the contract's (printed, mailed). */
export const OCCUPANT_HOME = OCCUPANT_CODE_PATH;
export const OCCUPANT_OPEN = OCCUPANT_LINK_PATH;
export const OCCUPANT_MONTHS = `${OCCUPANT_CODE_PATH}/months`;
export const occupantMonthPath = (month: string) => `${OCCUPANT_MONTHS}/${month}`;
export const OCCUPANT_DECLARE = `${OCCUPANT_CODE_PATH}/declare`;
