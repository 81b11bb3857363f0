import { z } from 'zod';
import { pageQuery, pagination } from './common.js';

/** What the audit trail records; each names the kind of access, never the data itself. */
export const AUDIT_ACTIONS = {
  'participant.list': 'Viewed participant list',
  'participant.export': 'Exported participant list',
  'participant.read': 'Viewed participant',
  'participant.create': 'Added participant',
  'participant.update': 'Changed participant',
  'participant.delete': 'Deleted participant',
  // Bulk referrals: one record listing every participant a CSV import added.
  'participant.import': 'Imported participants from CSV',
  'referral.read': 'Viewed referral',
  'referral.update': 'Changed referral',
  'device.list': 'Viewed devices with participant names',
  'device.read': 'Viewed device with participant name',
  'device.signins': 'Viewed device sign-in records',
  'message.send': 'Sent message to participant',
  // Follow-up.
  'followup.list': 'Viewed follow-up worklist',
  'contact.create': 'Recorded contact attempt',
  'contact.list': 'Viewed contact log',
  'message.list': 'Viewed messages to participant',
  'participant.discharge': 'Discharged participant',
  'participant.rerefer': 'Re-referred participant',
  'participant.record_download': 'Downloaded everything held about a participant (subject access)',
  'records.due': 'Viewed records due for review',
  'records.destroy': 'Destroyed a participant record after review',
  'session.step_up': 'Confirmed identity (step-up) for a dangerous action',
  'participant.transfer': 'Transferred participant to another site',
  // Security events: staff sign-ins and accounts, and access to the audit trail and server logs.
  'signin.success': 'Signed in',
  'signin.failure': 'Sign-in failed (user name as typed)',
  'signin.lockout': 'Sign-in locked after repeated failures',
  'signin.unlock': 'Lifted a sign-in lock',
  // Single sign-on (OpenID Connect).
  'signin.break_glass': 'Signed in with password and code as a break-glass account (single sign-on required)',
  'signin.password_refused': 'Password sign-in refused: the organisation requires single sign-on',
  'sso.refused': 'Single sign-on refused',
  'sso.jit_create': 'Added admin user on their first single sign-on',
  'sso.link': 'Linked an admin user to their identity at the provider',
  'sso.backchannel_logout': 'Signed out by the identity provider (back-channel logout)',
  'sso.configure': 'Changed the single sign-on settings',
  'admin.create': 'Added admin user',
  'admin.role_change': 'Changed admin access level',
  'admin.sites_change': 'Changed the sites an admin works at',
  'admin.system_administrator_change': 'Made or unmade a system administrator',
  'organisation.create': 'Added organisation',
  'organisation.update': 'Changed organisation',
  'site.create': 'Added site',
  'site.update': 'Changed site',
  'admin.delete': 'Deleted admin user',
  'admin.password_reset': "Reset an admin's password",
  'admin.authenticator_reset': "Reset an admin's authenticator",
  'admin.password_change': 'Changed own password',
  'audit.export': 'Exported the audit trail',
  'logs.view': 'Viewed a server log',
  'logs.download': 'Downloaded a server log',
  // Reports: aggregates only, no participant named.
  'report.view': 'Viewed a report (aggregate figures)',
  'report.export': 'Exported reports (aggregate figures)',
  // Outcomes: the catalogue and schedules are not about a participant; results are.
  'measure.create': 'Added an outcome measure',
  'measure.update': 'Changed an outcome measure',
  'schedule.update': "Changed a video set's assessment schedule",
  'assessment.create': 'Recorded an outcome result',
  'assessment.amend': 'Amended an outcome result',
  'assessment.list': 'Viewed outcome results with notes',
  'participant.fhir': 'Exported a participant as FHIR',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

const auditActionKeys = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];
/** Narrows the trail to one kind of event (the Audit trail screen's filter); absent: every kind. */
const auditActionFilter = z
  .enum(auditActionKeys, { error: 'Unknown kind of audit event' })
  .optional()
  .describe('Only events of this kind');

export const auditListQuery = z.object({ ...pageQuery(50, 500), action: auditActionFilter });
export const auditExportQuery = z.object({ action: auditActionFilter });

export const auditEvent = z
  .object({
    audit_event_id: z.number().int(),
    created_at: z.string(),
    admin_user_id: z.number().int().nullable(),
    admin_user_name: z.string(),
    action: z.string(),
    action_label: z.string(),
    participant_id: z.number().int().nullable().describe('The participant concerned, for actions on one'),
    participant_ids: z.array(z.number().int()).describe('Every participant whose data a list read returned'),
    detail: z.string().nullable().describe('Which fields or rows were involved, never their values'),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof auditEvent>;

export const auditPage = z.object({ data: z.array(auditEvent), pagination }).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPage>;

export const AUDIT_CSV_COLUMNS = [
  'audit_event_id',
  'created_at',
  'admin_user_id',
  'admin_user_name',
  'action',
  'participant_id',
  'participant_ids',
  'detail',
  'ip',
] as const;
