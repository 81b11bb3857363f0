import { z } from 'zod';
import { idParam, requiredText } from './common.js';
import { messages } from './messages.js';

const m = messages.organisation;

/**
 * An ODS code (the NHS Organisation Data Service's code of a trust, a provider or one of their
 * sites): 3 to 5 letters and digits, kept in capitals as the ODS publishes them.
 */
export const odsCode = z
  .string({ error: m.odsCodeEmpty })
  .trim()
  .min(1, { error: m.odsCodeEmpty, abort: true })
  .regex(/^[A-Za-z0-9]{3,5}$/, { error: m.odsCodeInvalid })
  .transform((code) => code.toUpperCase());

/** An optional ODS code: absent, null or blank mean none. */
const optionalOdsCode = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  odsCode.nullable(),
);

const organisationName = requiredText(m.nameEmpty, 2, m.nameShort, 200);
const siteName = requiredText(m.siteNameEmpty, 2, m.siteNameShort, 200);

export const organisation = z
  .object({
    organisation_id: z.number().int(),
    name: z.string(),
    ods_code: z
      .string()
      .nullable()
      .describe('Null only for the organisation an instance from before organisations became'),
    created_at: z.string(),
    sites: z.number().int().describe('How many sites it has'),
    participants: z
      .number()
      .int()
      .describe('How many participants its sites have (a count: no participant record is read)'),
  })
  .meta({ id: 'Organisation' });
export type Organisation = z.infer<typeof organisation>;

export const createOrganisationBody = z.object({ name: organisationName, ods_code: odsCode }).meta({
  id: 'CreateOrganisation',
  description: 'A new organisation; it starts with one site of the same name and ODS code.',
});
export type CreateOrganisationBody = z.input<typeof createOrganisationBody>;
export type CreateOrganisationInput = z.output<typeof createOrganisationBody>;

export const updateOrganisationBody = z
  .object({ name: organisationName.optional(), ods_code: odsCode.optional() })
  .meta({ id: 'UpdateOrganisation' });
export type UpdateOrganisationBody = z.input<typeof updateOrganisationBody>;
export type UpdateOrganisationInput = z.output<typeof updateOrganisationBody>;

export const site = z
  .object({
    site_id: z.number().int(),
    organisation_id: z.number().int(),
    name: z.string(),
    ods_code: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Site' });
export type Site = z.infer<typeof site>;

export const createSiteBody = z
  .object({ name: siteName, ods_code: optionalOdsCode.optional() })
  .meta({ id: 'CreateSite' });
export type CreateSiteBody = z.input<typeof createSiteBody>;
export type CreateSiteInput = z.output<typeof createSiteBody>;

export const updateSiteBody = z
  .object({ name: siteName.optional(), ods_code: optionalOdsCode.optional() })
  .meta({ id: 'UpdateSite' });
export type UpdateSiteBody = z.input<typeof updateSiteBody>;
export type UpdateSiteInput = z.output<typeof updateSiteBody>;

export const organisationIdParams = z.object({ id: idParam });
export const siteIdParams = z.object({ id: idParam });

/** A site named in a body: a participant's site, a transfer's destination. */
export const siteId = z
  .number({ error: m.siteRequired })
  .int({ error: m.siteRequired })
  .positive({ error: m.siteRequired })
  .max(2147483647, { error: m.siteNotFound });

export const transferParticipantBody = z.object({ site_id: siteId }).meta({
  id: 'TransferParticipant',
  description:
    "Another site of the participant's organisation; their tablet, programme and history go with them.",
});
export type TransferParticipantBody = z.infer<typeof transferParticipantBody>;

/** `?site_id=` of a list, a count, the dashboard, a report or an export: one site among those the admin sees. */
export const siteFilter = {
  site_id: z.coerce
    .number({ error: m.siteFilterInvalid })
    .int({ error: m.siteFilterInvalid })
    .positive({ error: m.siteFilterInvalid })
    .max(2147483647, { error: m.siteFilterRange })
    .optional()
    .describe('Only this site (one of those the admin sees); absent: every site the admin sees'),
};
