import { billingJobs } from './services/billing/deliver.js';
import { collectorJobs } from './services/collectors/jobs.js';
import { dataQualityJobs } from './services/data-quality/jobs.js';
import { declarationJobs } from './services/declarations/office/notices.js';
import { deliveryJobs } from './services/deliveries/send.js';
import type { JobDef } from './services/jobs/index.js';
import { lorawanJobs } from './services/lorawan/jobs.js';
import { partitionJobs } from './services/partitions/jobs.js';
import { personalDataJobs } from './services/personal-data/jobs.js';
import { statementJobs } from './services/statements/notify.js';

/**
 * Every scheduled job of the product, each declared by its feature (docs/ARCHITECTURE.md,
 * "Jobs and mail"); services/jobs runs them. A new feature adds its list here.
 */
export const JOBS: readonly JobDef[] = [
  ...dataQualityJobs,
  ...partitionJobs,
  ...statementJobs,
  ...billingJobs,
  ...deliveryJobs,
  ...collectorJobs,
  ...lorawanJobs,
  ...personalDataJobs,
  ...declarationJobs,
];
