/**
 * The whole database, one definition for PGlite and PostgreSQL. Column names follow the spec's
 * field names so presenters stay simple. Migrations are generated from this file by drizzle-kit
 * (`npm run db:generate`) and applied on start.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * An organisation (an NHS trust or a provider, named by its ODS code) runs the programme at its
 * sites. Its participants, devices, video sets and admin users are its own: the database keeps one
 * organisation's rows from another's (row-level security, docs/security.md).
 */
export const organisations = pgTable(
  'organisations',
  {
    organisation_id: serial('organisation_id').primaryKey(),
    name: text('name').notNull(),
    /** The organisation's ODS code, 3 to 5 capital letters and digits; null only for the
     *  organisation an upgraded instance was given, until someone sets it. */
    ods_code: text('ods_code'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('organisations_name_key').on(sql`lower(${t.name})`),
    uniqueIndex('organisations_ods_code_key').on(t.ods_code),
    check('organisations_ods_code_check', sql`${t.ods_code} ~ '^[A-Z0-9]{3,5}$'`),
  ],
);

/** Where an organisation's participants are seen (a hospital, a hub); a participant belongs to one. */
export const sites = pgTable(
  'sites',
  {
    site_id: serial('site_id').primaryKey(),
    organisation_id: integer('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id),
    name: text('name').notNull(),
    ods_code: text('ods_code'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('sites_organisation_name_key').on(t.organisation_id, sql`lower(${t.name})`),
    // What participants' (site, organisation) foreign key refers to.
    unique('sites_site_organisation_key').on(t.site_id, t.organisation_id),
    check('sites_ods_code_check', sql`${t.ods_code} ~ '^[A-Z0-9]{3,5}$'`),
  ],
);

export const adminUsers = pgTable(
  'admin_users',
  {
    admin_user_id: serial('admin_user_id').primaryKey(),
    user_name: text('user_name').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    role: text('role').notNull().default('basic access'),
    password_hash: text('password_hash').notNull(),
    totp_secret: text('totp_secret').notNull(),
    /** Highest TOTP time step accepted so far: a code is refused the second time it is used. */
    totp_last_step: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    /** The organisation whose programme this admin works in, with their role. */
    organisation_id: integer('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id),
    /** The organisation's sites this admin is limited to; empty: every site of it. */
    site_ids: integer('site_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** Runs the instance: organisations, sites, their admins, shared video sets, server logs. */
    system_administrator: boolean('system_administrator').notNull().default(false),
    /** The identity provider (its issuer) and the subject there this admin signs in as; null: none linked. */
    sso_issuer: text('sso_issuer'),
    sso_subject: text('sso_subject'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('admin_users_user_name_key').on(sql`lower(${t.user_name})`),
    uniqueIndex('admin_users_sso_subject_key').on(t.sso_issuer, t.sso_subject),
    check('admin_users_sso_check', sql`(${t.sso_issuer} is null) = (${t.sso_subject} is null)`),
    check('admin_users_role_check', sql`${t.role} in ('basic access', 'full access')`),
  ],
);

/**
 * Failed sign-ins counted per user name (known or not) and source address, in the database so
 * throttling holds across instances. Keyed on both, so an outsider's failures lock the user name
 * for that outsider's address only, never for its owner signing in from elsewhere.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    user_name: text('user_name').notNull(),
    /** The client address (IPv6 reduced to its /64); '' for rows kept from 0.1.0. */
    source: text('source').notNull().default(''),
    failures: integer('failures').notNull().default(0),
    last_failure_at: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
    locked_until: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.user_name, t.source] })],
);

export const sessions = pgTable(
  'sessions',
  {
    session_id: uuid('session_id').primaryKey().defaultRandom(),
    admin_user_id: integer('admin_user_id')
      .notNull()
      .references(() => adminUsers.admin_user_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    ip: text('ip'),
    /** The last time this session's admin proved who they are (sign-in, or a step-up with password
     *  and TOTP code): dangerous actions need it within the last 5 minutes. Null: created_at. */
    authenticated_at: timestamp('authenticated_at', { withTimezone: true }),
    /** Signed in through this organisation's identity provider (null: password and code). */
    sso_organisation_id: integer('sso_organisation_id'),
    /** The provider's session id (the ID token's `sid`), which a back-channel logout may name. */
    sso_sid: text('sso_sid'),
  },
  (t) => [
    index('sessions_admin_user_idx').on(t.admin_user_id),
    index('sessions_sso_sid_idx')
      .on(t.sso_sid)
      .where(sql`${t.sso_sid} is not null`),
  ],
);

/**
 * An organisation's OpenID Connect provider (docs/security.md, Single sign-on). Keyed by the
 * organisation, so each has its own; the client secret and the private key of private_key_jwt are
 * sealed with the secrets key like the TOTP secrets (modules/sso/sso-secrets.ts).
 */
export const ssoConfigurations = pgTable(
  'sso_configurations',
  {
    organisation_id: integer('organisation_id').primaryKey(),
    issuer: text('issuer').notNull(),
    client_id: text('client_id').notNull(),
    /** contract SSO_CLIENT_AUTH_METHODS */
    client_auth: text('client_auth').notNull(),
    /** Sealed; for client_secret_basic. */
    client_secret: text('client_secret'),
    /** Sealed private JWK of private_key_jwt, generated by Pathway; its public half is published. */
    private_jwk: text('private_jwk'),
    role_claim: text('role_claim').notNull(),
    /** Claim value -> role (contract ROLES). */
    role_map: jsonb('role_map').$type<Record<string, string>>().notNull(),
    site_claim: text('site_claim'),
    jit: boolean('jit').notNull().default(false),
    acr_values: text('acr_values'),
    /** Scopes asked for beside openid, profile and email (CIS2's roles come with nationalrbacaccess). */
    scopes: text('scopes'),
    required: boolean('required').notNull().default(false),
    /** Lower-cased user names that keep password sign-in when single sign-on is required. */
    break_glass: text('break_glass')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'sso_configurations_client_auth_check',
      sql`${t.client_auth} in ('client_secret_basic', 'private_key_jwt')`,
    ),
  ],
);

/** Which organisation's provider a work email domain signs in with: one each, so the key. */
export const ssoEmailDomains = pgTable(
  'sso_email_domains',
  {
    domain: text('domain').primaryKey(),
    organisation_id: integer('organisation_id')
      .notNull()
      .references(() => ssoConfigurations.organisation_id, { onDelete: 'cascade' }),
  },
  (t) => [index('sso_email_domains_organisation_idx').on(t.organisation_id)],
);

/**
 * A sign-in (or step-up) sent to a provider and not yet back: what the callback checks the answer
 * against. Used once (`used_at`), for 10 minutes; the browser that started it holds the state in a
 * signed cookie. Kept in the database so any instance can take the callback.
 */
export const ssoFlows = pgTable('sso_flows', {
  state: text('state').primaryKey(),
  organisation_id: integer('organisation_id').notNull(),
  /** 'sign-in' or 'step-up' */
  purpose: text('purpose').notNull(),
  /** The session a step-up is for. */
  session_id: uuid('session_id').references(() => sessions.session_id, { onDelete: 'cascade' }),
  nonce: text('nonce').notNull(),
  code_verifier: text('code_verifier').notNull(),
  created_at: createdAt(),
  used_at: timestamp('used_at', { withTimezone: true }),
});

/** Logout tokens already acted on (issuer and jti), so a replayed one is refused; pruned after they expire. */
export const ssoLogoutTokens = pgTable(
  'sso_logout_tokens',
  {
    issuer: text('issuer').notNull(),
    jti: text('jti').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.jti] })],
);

/** Secrets every web instance must share (JWT signing key), created once on first start. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: createdAt(),
});

export const videoSets = pgTable(
  'fitness_video_sets',
  {
    fitness_video_set_id: serial('fitness_video_set_id').primaryKey(),
    set_name: text('set_name').notNull(),
    number_of_weeks: integer('number_of_weeks').notNull(),
    videos_in_week: integer('videos_in_week').notNull(),
    /** The organisation that made the set and may change it. */
    organisation_id: integer('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id),
    /** Published by a system administrator: every organisation reads it, none changes it. */
    shared: boolean('shared').notNull().default(false),
    created_at: createdAt(),
    /**
     * Raised by a trigger on every change to the set's videos (drizzle/0007_video_set_version_trigger.sql):
     * tablet call 1 keeps the programme's video list per set and version, and every web instance
     * sees a change in the same read that gives it the set.
     */
    videos_version: integer('videos_version').notNull().default(0),
  },
  (t) => [
    check('video_sets_weeks_check', sql`${t.number_of_weeks} >= 1`),
    check('video_sets_videos_in_week_check', sql`${t.videos_in_week} between 1 and 7`),
  ],
);

export const videos = pgTable(
  'videos',
  {
    video_id: serial('video_id').primaryKey(),
    fitness_video_set_id: integer('fitness_video_set_id')
      .notNull()
      .references(() => videoSets.fitness_video_set_id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** Storage key of the uploaded file (presented as an absolute URL). */
    file_location_path: text('file_location_path').notNull(),
    file_size: bigint('file_size', { mode: 'number' }).notNull().default(0),
    video_thumbnail_url: text('video_thumbnail_url').notNull().default('processing....'),
    poster_url: text('poster_url'),
    video_length: text('video_length').notNull().default('0'),
    week_number: integer('week_number').notNull(),
    day_number: integer('day_number').notNull(),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('videos_set_position_key').on(t.fitness_video_set_id, t.week_number, t.day_number),
    index('videos_file_idx').on(t.file_location_path),
  ],
);

/**
 * Every resumable upload from its creation: the stored file is kept while a video points at it,
 * and an upload that was abandoned, or finished but never saved as a video, is cleaned up.
 */
export const videoUploads = pgTable(
  'video_uploads',
  {
    /** The tus upload id and storage key, `uploads/<32 hex>`. */
    storage_key: text('storage_key').primaryKey(),
    /** receiving: bytes still arriving; ready: complete and checked to be a playable video. */
    status: text('status').notNull().default('receiving'),
    file_size: bigint('file_size', { mode: 'number' }).notNull(),
    content_type: text('content_type'),
    duration_seconds: doublePrecision('duration_seconds'),
    created_by: integer('created_by').references(() => adminUsers.admin_user_id, { onDelete: 'set null' }),
    created_at: createdAt(),
    /** Last time bytes arrived (or the upload finished): abandonment is measured from here. */
    last_activity_at: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    /** The organisation whose admin uploaded it (the scope's, db/scope.ts). */
    organisation_id: integer('organisation_id')
      .notNull()
      .default(sql`pathway_organisation()`),
  },
  (t) => [
    check('video_uploads_status_check', sql`${t.status} in ('receiving', 'ready')`),
    index('video_uploads_activity_idx').on(t.status, t.last_activity_at),
  ],
);

export const authorizedDevices = pgTable(
  'authorized_devices',
  {
    authorized_device_id: serial('authorized_device_id').primaryKey(),
    name: text('name').notNull(),
    uuid: text('uuid').notNull(),
    push_notification_id: text('push_notification_id'),
    organisation_id: integer('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id),
    /**
     * Its holder's site while it is assigned (kept by a trigger on participants, db/functions/organisation-scope.sql): a
     * participant's tablet is seen with them; an unassigned one by the whole organisation.
     */
    site_id: integer('site_id'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('authorized_devices_uuid_key').on(t.uuid),
    // The tablet sends its Android ID in lower case; a mixed-case uuid could never match it.
    check('authorized_devices_uuid_lower_check', sql`${t.uuid} = lower(${t.uuid})`),
  ],
);

export const participants = pgTable(
  'participants',
  {
    participant_id: serial('participant_id').primaryKey(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    gender: text('gender'),
    date_of_birth: date('date_of_birth', { mode: 'string' }).notNull(),
    email: text('email'),
    phone_number: text('phone_number').notNull(),
    phone_number_secondary: text('phone_number_secondary'),
    address: text('address').notNull(),
    language: text('language'),
    /** The assigned device; unique, so a device is never assigned to two participants. */
    authorized_device_id: integer('authorized_device_id').references(
      () => authorizedDevices.authorized_device_id,
      { onDelete: 'set null' },
    ),
    /** Address of the last device call that carried a valid token (not call 1: anyone can make that). */
    last_ip_address: text('last_ip_address'),
    /** The last call of the participant's tablet of any kind, kept to the minute (see device-api). */
    tablet_last_contact_at: timestamp('tablet_last_contact_at', { withTimezone: true }),
    push_notification_id: text('push_notification_id').notNull().default('empty'),
    purge_cache: boolean('purge_cache').notNull().default(false),
    programme_referred_to: text('programme_referred_to'),
    referring_organisation: text('referring_organisation'),
    referring_healthcare_professional: text('referring_healthcare_professional'),
    referring_healthcare_professional_role: text('referring_healthcare_professional_role'),
    checked_contraindications_to_exercise: boolean('checked_contraindications_to_exercise'),
    smoker: boolean('smoker'),
    diabetes: boolean('diabetes'),
    registered_deaf: boolean('registered_deaf'),
    notes: text('notes'),
    /** NHS number, 10 digits without spaces (modulus 11 checked by the contract); unique when set. */
    nhs_number: text('nhs_number'),
    /** active, or completed / withdrawn after a discharge (contract PARTICIPANT_STATUSES). */
    status: text('status').notNull().default('active'),
    /** The day a discharge ended the participation (retention counts from it); null while active. */
    discharged_on: date('discharged_on', { mode: 'string' }),
    /** With status withdrawn: one of the contract's WITHDRAWAL_REASONS. */
    discharge_reason: text('discharge_reason'),
    /** Free text given with the discharge (identifiable, like notes). */
    discharge_note: text('discharge_note'),
    /** The site whose staff look after the participant; everything of theirs follows it. */
    site_id: integer('site_id').notNull(),
    /** The site's organisation, kept with it by the foreign key on both (participants_site_fk). */
    organisation_id: integer('organisation_id').notNull(),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('participants_device_key').on(t.authorized_device_id),
    // One NHS number per organisation: another trust may hold the same person's record of its own.
    uniqueIndex('participants_nhs_number_key').on(t.organisation_id, t.nhs_number),
    foreignKey({
      name: 'participants_site_fk',
      columns: [t.site_id, t.organisation_id],
      foreignColumns: [sites.site_id, sites.organisation_id],
    }),
    check('participants_status_check', sql`${t.status} in ('active', 'completed', 'withdrawn')`),
    check(
      'participants_discharge_check',
      sql`(${t.status} = 'active') = (${t.discharged_on} is null) and (${t.discharge_reason} is null or ${t.status} = 'withdrawn')`,
    ),
    // Possible duplicates: the same date of birth and names, ignoring case and spaces;
    // the expressions are participants' identityKeyOf (modules/participants/duplicates.ts).
    index('participants_identity_idx').on(
      t.date_of_birth,
      sql`lower(regexp_replace(${t.last_name}, '[[:space:]]', '', 'g'))`,
      sql`lower(regexp_replace(${t.first_name}, '[[:space:]]', '', 'g'))`,
    ),
    // The grid's status filter and the retention review (discharged longest ago first).
    index('participants_status_idx').on(t.status, t.participant_id),
    index('participants_site_idx').on(t.site_id, t.participant_id),
    index('participants_discharged_on_idx')
      .on(t.discharged_on)
      .where(sql`${t.discharged_on} is not null`),
    // Every sortable column of the grid ends in participant_id, so any page is an index range
    // (keyset) and the count or offset of a filtered list is an index-only scan.
    index('participants_last_name_idx').on(t.last_name, t.participant_id),
    index('participants_first_name_idx').on(t.first_name, t.participant_id),
    index('participants_date_of_birth_idx').on(t.date_of_birth, t.participant_id),
    // "Never in contact" sorts as the oldest contact, so the keyset cursor never meets a null.
    index('participants_tablet_contact_idx').on(
      sql`coalesce(${t.tablet_last_contact_at}, '1970-01-01T00:00:00Z'::timestamptz)`,
      t.participant_id,
    ),
  ],
);

/**
 * How far each participant is behind, one row per participant (made by a trigger on participants,
 * removed with them). The daily check rewrites days_behind for most participants every day; in
 * participants each new row version added an entry to all eight of its indexes (days_behind is
 * indexed, so no update could be HOT), here it adds three small ones (migration 0009).
 */
export const participantAdherence = pgTable(
  'participant_adherence',
  {
    participant_id: integer('participant_id')
      .primaryKey()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    days_behind: integer('days_behind').notNull().default(0),
    /** Adherence class of days_behind (0 on track, 1 slightly behind, 2 behind), for the grid filter. */
    adherence: integer('adherence')
      .notNull()
      .generatedAlwaysAs(sql`case when days_behind <= 0 then 0 when days_behind <= 2 then 1 else 2 end`),
  },
  (t) => [
    // The grid's days-behind sort and its state filter, each a keyset range ending in participant_id.
    index('participant_adherence_days_behind_idx').on(t.days_behind, t.participant_id),
    index('participant_adherence_adherence_idx').on(t.adherence, t.participant_id),
  ],
);

/** Bearer tokens of the tablet app; valid only while the device stays with that participant. */
export const deviceTokens = pgTable(
  'device_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    authorized_device_id: integer('authorized_device_id')
      .notNull()
      .references(() => authorizedDevices.authorized_device_id, { onDelete: 'cascade' }),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    /** Kept to the minute; a token unused for DEVICE_TOKEN_IDLE_DAYS expires (and is pruned). */
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    index('device_tokens_device_idx').on(t.authorized_device_id),
    // For the foreign key's cascade when a participant is deleted (no scan of the whole table).
    index('device_tokens_participant_idx').on(t.participant_id),
  ],
);

/**
 * Device sign-in records: every call 1 that handed out a token and every call 2 that changed a
 * push token. A device id is not a secret, so full-access staff can see who used one, from where.
 * Rows outlive the device and the participant (ids set to null), so the uuid is copied.
 */
export const deviceSignIns = pgTable(
  'device_sign_ins',
  {
    device_sign_in_id: bigserial('device_sign_in_id', { mode: 'number' }).primaryKey(),
    /** 'token issued' (call 1) or 'push token changed' (call 2). */
    kind: text('kind').notNull(),
    authorized_device_id: integer('authorized_device_id').references(
      () => authorizedDevices.authorized_device_id,
      { onDelete: 'set null' },
    ),
    device_uuid: text('device_uuid').notNull(),
    participant_id: integer('participant_id').references(() => participants.participant_id, {
      onDelete: 'set null',
    }),
    ip_address: text('ip_address').notNull(),
    /** Call 1 from a new address while the tablet's previous token was in use within the hour. */
    flagged: boolean('flagged').notNull().default(false),
    /** The device's organisation when the record was made (it outlives the device). */
    organisation_id: integer('organisation_id').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    index('device_sign_ins_created_at_idx').on(t.created_at),
    index('device_sign_ins_device_idx').on(t.authorized_device_id, t.created_at),
    // For the foreign key's "set null" when a participant is deleted (no scan of the whole table).
    index('device_sign_ins_participant_idx').on(t.participant_id),
  ],
);

/** Rate-limit counters shared by every web instance (PostgreSQL mode); one row per key and window. */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    reset_at: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_reset_at_idx').on(t.reset_at)],
);

export const participationProgress = pgTable(
  'fitness_participation_progress',
  {
    fitness_participation_progress_id: serial('fitness_participation_progress_id').primaryKey(),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    fitness_video_set_id: integer('fitness_video_set_id')
      .notNull()
      .references(() => videoSets.fitness_video_set_id, { onDelete: 'cascade' }),
    current_week: integer('current_week').notNull().default(1),
    current_day: integer('current_day').notNull().default(1),
    started_date: date('started_date', { mode: 'string' }).notNull(),
    last_seen_date: date('last_seen_date', { mode: 'string' }).notNull(),
    percentage_progress: integer('percentage_progress').notNull().default(0),
    video_stopped_at: text('video_stopped_at').notNull().default('0'),
    /** Videos from before the day that were still unseen at the last daily check (see missedVideos). */
    missed_at_check: integer('missed_at_check').notNull().default(0),
    /**
     * Distinct videos of this set the participant has seen (rows of seen_videos), kept by triggers
     * as views arrive, are removed, or the set changes (drizzle/0005_progress_seen_count_triggers.sql),
     * so the daily check reads one row per participant instead of counting every view.
     */
    seen_count: integer('seen_count').notNull().default(0),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('progress_participant_key').on(t.participant_id),
    index('progress_set_idx').on(t.fitness_video_set_id),
  ],
);

export const seenVideos = pgTable(
  'seen_videos',
  {
    seen_video_id: bigserial('seen_video_id', { mode: 'number' }).primaryKey(),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    video_id: integer('video_id')
      .notNull()
      .references(() => videos.video_id, { onDelete: 'cascade' }),
    fitness_video_set_id: integer('fitness_video_set_id').notNull(),
    week_number: integer('week_number').notNull(),
    day_number: integer('day_number').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('seen_videos_participant_video_key').on(t.participant_id, t.video_id),
    index('seen_videos_created_at_idx').on(t.created_at),
  ],
);

/**
 * Changes to the number of participants per adherence class, with or without a programme, written
 * by triggers (db/participant-tally.ts) in the transaction that made them. The grid's totals and
 * the dashboard sum these few rows instead of counting every participant on each request; the
 * daily job folds them into one row per class.
 */
export const participantTally = pgTable('participant_tally', {
  tally_id: bigserial('tally_id', { mode: 'number' }).primaryKey(),
  adherence: integer('adherence').notNull(),
  with_programme: boolean('with_programme').notNull(),
  /** The participant's status (active, completed, withdrawn): the grid's status filter and the
   *  dashboard count active participants only (migration 0013). */
  status: text('status').notNull().default('active'),
  /** The participant's site: each site's (and organisation's) counts are its own. */
  site_id: integer('site_id').notNull(),
  delta: integer('delta').notNull(),
});

/**
 * Views per calendar day and site (the viewer's site when they watched), kept in step with
 * seen_videos so the dashboard never scans it.
 */
export const dailyViews = pgTable(
  'daily_views',
  {
    day: date('day', { mode: 'string' }).notNull(),
    site_id: integer('site_id').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.site_id] })],
);

/**
 * Rollups of seen_videos for the Reports screen, kept by statement triggers on
 * seen_videos in the transaction of every insert, delete or update
 * (drizzle/0019_report_rollup_triggers.sql), so a report over a year never reads every view.
 *
 * seen_weeks: per participant, set and programme week, the number of that week's views and the
 * instant of the latest (when it is before a period's end, all of the week's views are too).
 */
export const seenWeeks = pgTable(
  'seen_weeks',
  {
    participant_id: integer('participant_id').notNull(),
    fitness_video_set_id: integer('fitness_video_set_id').notNull(),
    week_number: integer('week_number').notNull(),
    seen: integer('seen').notNull(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /**
     * When the week's views first numbered its videos (the instant of the n-th view, n the week's
     * videos now), null while fewer or when the week has no video: from then the week counts as
     * watched in full (migration 0020 keeps it, with a trigger).
     */
    completed_at: timestamp('completed_at', { withTimezone: true }),
    /**
     * When they first outnumbered them (the (n+1)-th view, possible only after a video moved into
     * the week): from then the week no longer counts, as the report compares the views before the
     * period's end with the week's videos, exactly.
     */
    completed_until: timestamp('completed_until', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.participant_id, t.fitness_video_set_id, t.week_number] }),
    // Where people stop reads the completions of the hours between the start of the UTC day its
    // period ends in and its end (up to a day's, by the time zone) here, not every view of them.
    index('seen_weeks_completed_at_idx')
      .on(t.completed_at)
      .where(sql`${t.completed_at} is not null`),
    index('seen_weeks_completed_until_idx')
      .on(t.completed_until)
      .where(sql`${t.completed_until} is not null`),
  ],
);

/**
 * "Where people stop" by its own keys, kept by triggers (drizzle/0020_programme_week_rollups.sql)
 * so the report reads a few thousand rows instead of a row per participant and week.
 *
 * report_cohort: per participant the report counts (a programme and a tablet now or in the device
 * history), their set, start day and discharge week: what the rollups below counted them under, so
 * a trigger can take that away when any of it changes, whatever the order of a cascade's deletes.
 */
export const reportCohort = pgTable('report_cohort', {
  participant_id: integer('participant_id').primaryKey(),
  /** The participant's site: what the rollups below counted them under, with the rest. */
  site_id: integer('site_id').notNull(),
  fitness_video_set_id: integer('fitness_video_set_id').notNull(),
  started_on: date('started_on', { mode: 'string' }).notNull(),
  /** Programme weeks begun by the discharge day (0: discharged before the start); null while not discharged. */
  discharge_week: integer('discharge_week'),
});

/** Participants of report_cohort per set, start day and discharge week: "reached" and "still active". */
export const programmeStarts = pgTable(
  'programme_starts',
  {
    site_id: integer('site_id').notNull(),
    fitness_video_set_id: integer('fitness_video_set_id').notNull(),
    started_on: date('started_on', { mode: 'string' }).notNull(),
    discharge_week: integer('discharge_week'),
    participants: integer('participants').notNull(),
  },
  (t) => [
    unique('programme_starts_key')
      .on(t.site_id, t.fitness_video_set_id, t.started_on, t.discharge_week)
      .nullsNotDistinct(),
    // Rows a change brought to 0 are deleted at once: this finds them without a scan.
    index('programme_starts_empty_idx')
      .on(t.fitness_video_set_id)
      .where(sql`${t.participants} = 0`),
  ],
);

/**
 * Weeks of report_cohort's participants (of their own set) that became watched in full
 * (seen_weeks.completed_at, +1) or stopped being so (completed_until, -1), per UTC day of that
 * instant, set, week and start day. A report counts those before the UTC day its period ends in,
 * and the few hours from that day's start to the period's end from seen_weeks.
 */
export const programmeWeekCompletions = pgTable(
  'programme_week_completions',
  {
    day: date('day', { mode: 'string' }).notNull(),
    site_id: integer('site_id').notNull(),
    fitness_video_set_id: integer('fitness_video_set_id').notNull(),
    week_number: integer('week_number').notNull(),
    started_on: date('started_on', { mode: 'string' }).notNull(),
    participants: integer('participants').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.site_id, t.fitness_video_set_id, t.week_number, t.started_on] }),
    index('programme_week_completions_empty_idx')
      .on(t.day)
      .where(sql`${t.participants} = 0`),
  ],
);

/**
 * programme_week_completions summed over every day, per set, week and start day: a period ending
 * today takes these and subtracts the few completions of its last UTC day and after.
 */
export const programmeWeekTotals = pgTable(
  'programme_week_totals',
  {
    site_id: integer('site_id').notNull(),
    fitness_video_set_id: integer('fitness_video_set_id').notNull(),
    week_number: integer('week_number').notNull(),
    started_on: date('started_on', { mode: 'string' }).notNull(),
    participants: integer('participants').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.site_id, t.fitness_video_set_id, t.week_number, t.started_on] }),
    index('programme_week_totals_empty_idx')
      .on(t.fitness_video_set_id)
      .where(sql`${t.participants} = 0`),
  ],
);

/**
 * video_day_views: views per video and UTC day (the reports' periods are days of
 * ADHERENCE_CHECK_TZ, so a report adds the whole UTC days inside the period and counts the views
 * of the few hours at either edge from seen_videos).
 */
export const videoDayViews = pgTable(
  'video_day_views',
  {
    day: date('day', { mode: 'string' }).notNull(),
    video_id: integer('video_id').notNull(),
    /** The viewer's site: a shared set's videos are watched at every organisation's sites. */
    site_id: integer('site_id').notNull(),
    views: integer('views').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.video_id, t.site_id] })],
);

export const pushOutbox = pgTable(
  'push_outbox',
  {
    push_id: bigserial('push_id', { mode: 'number' }).primaryKey(),
    participant_id: integer('participant_id').references(() => participants.participant_id, {
      onDelete: 'set null',
    }),
    target_token: text('target_token'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    kind: text('kind').notNull(),
    /** Makes reminders idempotent: one per participant, kind and day (unique with participant_id). */
    dedupe_key: text('dedupe_key'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    created_by: integer('created_by'),
    created_at: createdAt(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    /** queued: not before this time (retry backoff); sending: the claim expires then (crashed sender). */
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    // Leads with participant_id so a participant's messages (their screen, and the foreign key's
    // "set null" when they are deleted) are found without reading the whole outbox. Rows whose
    // participant_id or dedupe_key is null never conflict, as before for a null key.
    uniqueIndex('push_outbox_participant_dedupe_key').on(t.participant_id, t.dedupe_key),
    index('push_outbox_status_idx').on(t.status),
  ],
);

/** Who read or changed identifiable data, never the data itself. */
export const auditEvents = pgTable(
  'audit_events',
  {
    audit_event_id: bigserial('audit_event_id', { mode: 'number' }).primaryKey(),
    admin_user_id: integer('admin_user_id'),
    admin_user_name: text('admin_user_name').notNull(),
    action: text('action').notNull(),
    participant_id: integer('participant_id'),
    /** Every participant whose identifiable data a list read returned (one event per request). */
    participant_ids: integer('participant_ids').array(),
    detail: text('detail'),
    ip: text('ip'),
    /**
     * The organisation whose trail it is: the scope's (db/scope.ts) unless the writer says it
     * (a sign-in, made before there is one); null for the instance's own (a sign-in under a user
     * name nobody has), which system administrators read.
     */
    organisation_id: integer('organisation_id').default(sql`pathway_organisation()`),
    created_at: createdAt(),
  },
  (t) => [
    index('audit_events_created_at_idx').on(t.created_at),
    // "Who saw this participant": participant_id = $1 or $1 = any(participant_ids).
    index('audit_events_participant_idx').on(t.participant_id),
    index('audit_events_participant_ids_idx').using('gin', t.participant_ids),
  ],
);

/** One row per day the adherence check finished, so a second run that day does nothing. */
export const adherenceRuns = pgTable('adherence_runs', {
  run_date: date('run_date', { mode: 'string' }).primaryKey(),
  started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finished_at: timestamp('finished_at', { withTimezone: true }),
  participants_checked: integer('participants_checked'),
});

/**
 * Every contact attempt staff made with a participant (the follow-up contact log). Append-only: a
 * correction is a new entry. Kept with the participant's record and destroyed with it.
 */
export const participantContacts = pgTable(
  'participant_contacts',
  {
    contact_id: bigserial('contact_id', { mode: 'number' }).primaryKey(),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    /** contract CONTACT_METHODS */
    method: text('method').notNull(),
    /** contract CONTACT_OUTCOMES */
    outcome: text('outcome').notNull(),
    /** Identifiable free text: full access only. */
    note: text('note'),
    /** The participant leaves the worklist until this day unless a new reason appears. */
    next_followup_on: date('next_followup_on', { mode: 'string' }),
    /** The follow-up reasons that applied when the contact was recorded (for the snooze rule). */
    reasons: text('reasons')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    admin_user_id: integer('admin_user_id'),
    admin_user_name: text('admin_user_name').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    check(
      'participant_contacts_method_check',
      sql`${t.method} in ('phone', 'text', 'email', 'in_person', 'letter')`,
    ),
    check(
      'participant_contacts_outcome_check',
      sql`${t.outcome} in ('reached', 'no_answer', 'left_message', 'wrong_number', 'declined')`,
    ),
    index('participant_contacts_participant_idx').on(t.participant_id, t.created_at),
  ],
);

/**
 * Which tablet a participant had and when: a row per assignment, closed when the device is
 * detached (edit, discharge, deletion of the device). Kept with the participant's record (the
 * subject access download) and destroyed with it; the uuid and name are copied because a device
 * outlives its assignments and may be deleted.
 */
export const deviceAssignments = pgTable(
  'device_assignments',
  {
    device_assignment_id: bigserial('device_assignment_id', { mode: 'number' }).primaryKey(),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    authorized_device_id: integer('authorized_device_id').references(
      () => authorizedDevices.authorized_device_id,
      { onDelete: 'set null' },
    ),
    device_uuid: text('device_uuid').notNull(),
    device_name: text('device_name').notNull(),
    assigned_at: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
    unassigned_at: timestamp('unassigned_at', { withTimezone: true }),
    assigned_by: integer('assigned_by'),
  },
  (t) => [
    index('device_assignments_participant_idx').on(t.participant_id, t.assigned_at),
    index('device_assignments_device_idx').on(t.authorized_device_id),
  ],
);

/**
 * The adherence classes' counts as the daily check left them, one row per day (the Reports screen's
 * "Adherence over time" report): active participants with a programme, on track, slightly behind
 * and behind. Written once a day in the check's transaction; history starts with the first check
 * after this table was made.
 */
export const adherenceHistory = pgTable(
  'adherence_history',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** Each site's counts as the check left them; a later transfer does not rewrite them. */
    site_id: integer('site_id').notNull(),
    on_track: integer('on_track').notNull(),
    slightly_behind: integer('slightly_behind').notNull(),
    behind: integer('behind').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.site_id] })],
);

/**
 * The follow-up worklist's facts, one row per participant (made by a trigger when the participant
 * is inserted, removed with them): each reason is a column kept current where its fact changes,
 * so the worklist is an index range per reason, never a scan of every participant.
 * Mirrored by triggers (drizzle 0016): active (participants.status), has_device and
 * device_assigned_at (participants.authorized_device_id), token_empty (push_notification_id),
 * has_programme (fitness_participation_progress). Written by the server: tablet_called_at (the
 * device API's authenticated calls), push_failures and failing_began_at (push delivery; the token's
 * mirror and the tablet's first call keep the latter too), first_missed_on and third_missed_on (the
 * daily check, and a view or a new programme: progress/repository.ts), finished_at (the daily
 * check), snoozed_until and
 * snooze_reasons (a contact). The *_since / *_from columns are derived from those by a BEFORE
 * trigger (drizzle 0022, 0031); null when the reason cannot apply (and always null for a participant
 * who is not active). behind_since and slightly_since hold a day (third_ or first_missed_on) as its
 * 00:00 UTC, which the worklist reads as that day in the programme's time zone. The days behind are
 * participant_adherence's: this row changes only when a reason's fact does, not every day (0031).
 */
export const participantFollowup = pgTable(
  'participant_followup',
  {
    participant_id: integer('participant_id')
      .primaryKey()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    /** participants.site_id, mirrored (the worklist's rows and its tally are each site's). */
    site_id: integer('site_id').notNull(),
    active: boolean('active').notNull().default(true),
    has_device: boolean('has_device').notNull().default(false),
    has_programme: boolean('has_programme').notNull().default(false),
    /**
     * The days that went by without their video (missedVideos of the contract's programme rules)
     * reached 1 on first_missed_on and 3 on third_missed_on (see missedCountReachedOn), each null
     * while fewer were missed: the reasons slightly behind (1-2) and behind (3 or more). The days
     * behind (participant_adherence) also count today's video.
     */
    first_missed_on: date('first_missed_on', { mode: 'string' }),
    third_missed_on: date('third_missed_on', { mode: 'string' }),
    registered_at: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the current device was assigned ("never called" counts from here). */
    device_assigned_at: timestamp('device_assigned_at', { withTimezone: true }),
    /** The last call with the tablet's bearer token (to the minute). */
    tablet_called_at: timestamp('tablet_called_at', { withTimezone: true }),
    token_empty: boolean('token_empty').notNull().default(true),
    /** Push messages that failed in a row (reset by one delivered, or by a new token). */
    push_failures: integer('push_failures').notNull().default(0),
    /**
     * When reminders to the tablet began to fail, as the facts say: the first of the failures in a
     * row, the clearing of the push token, or the tablet's first call without one. Null while they
     * work (and where an upgrade found no fact: "since" then says "at least").
     */
    failing_began_at: timestamp('failing_began_at', { withTimezone: true }),
    /** Watched through the last day of the programme (set by the daily check). */
    finished_at: timestamp('finished_at', { withTimezone: true }),
    /** The latest contact's next follow-up date: off the worklist until then, unless a new reason. */
    snoozed_until: date('snoozed_until', { mode: 'string' }),
    snooze_reasons: text('snooze_reasons')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    behind_since: timestamp('behind_since', { withTimezone: true }),
    slightly_since: timestamp('slightly_since', { withTimezone: true }),
    /** tablet_silent once this is FOLLOWUP_SILENT_DAYS old. */
    silent_from: timestamp('silent_from', { withTimezone: true }),
    failing_since: timestamp('failing_since', { withTimezone: true }),
    finished_since: timestamp('finished_since', { withTimezone: true }),
    /** not_started once this is 2 days old. */
    not_started_from: timestamp('not_started_from', { withTimezone: true }),
    /**
     * The days (programme calendar) of the participant's current or next stretch of assessments
     * due and not recorded (their windows merged where they touch), null when none: kept by
     * assessment_due_refresh() where a fact changes (a result, the schedule, the programme, a
     * discharge) and moved on by the daily job when a stretch has ended.
     */
    assessment_due_on: date('assessment_due_on', { mode: 'string' }),
    assessment_due_until: date('assessment_due_until', { mode: 'string' }),
    /** assessment_due on from this instant (00:00 of assessment_due_on in the programme's time zone). */
    assessment_due_from: timestamp('assessment_due_from', { withTimezone: true }),
  },
  (t) => [
    index('participant_followup_behind_idx')
      .on(t.behind_since, t.participant_id)
      .where(sql`${t.behind_since} is not null`),
    index('participant_followup_slightly_idx')
      .on(t.slightly_since, t.participant_id)
      .where(sql`${t.slightly_since} is not null`),
    // site_id last in the two reasons the clock brings: their counts per reason run as
    // pathway_staff too, and are index-only with it (migration 0033).
    index('participant_followup_silent_idx')
      .on(t.silent_from, t.participant_id, t.site_id)
      .where(sql`${t.silent_from} is not null`),
    index('participant_followup_failing_idx')
      .on(t.failing_since, t.participant_id)
      .where(sql`${t.failing_since} is not null`),
    index('participant_followup_finished_idx')
      .on(t.finished_since, t.participant_id)
      .where(sql`${t.finished_since} is not null`),
    index('participant_followup_not_started_idx')
      .on(t.not_started_from, t.participant_id, t.site_id)
      .where(sql`${t.not_started_from} is not null`),
    // The worklist's total without reading the rows (index-only counts; see followup/worklist.ts):
    // everyone with a reason that does not depend on the time of day, and the two reasons that
    // do, each for those with none of the others (a tablet can only be silent with a device and a
    // programme, and only someone without both is "not started", so these never overlap). The
    // counts run as pathway_staff, whose policy reads each row's site: site_id is in the *_only
    // indexes so that the policy is checked from the index too (migration 0032; without it each
    // counted row was a heap visit, about 4 ms of PostgreSQL's CPU per page at 100k participants).
    index('participant_followup_listed_idx')
      .on(t.participant_id)
      .where(
        sql`${t.behind_since} is not null or ${t.slightly_since} is not null or ${t.failing_since} is not null or ${t.finished_since} is not null`,
      ),
    index('participant_followup_silent_only_idx')
      .on(t.silent_from, t.site_id)
      .where(
        sql`${t.silent_from} is not null and ${t.behind_since} is null and ${t.slightly_since} is null and ${t.failing_since} is null and ${t.finished_since} is null`,
      ),
    index('participant_followup_not_started_only_idx')
      .on(t.not_started_from, t.site_id)
      .where(
        sql`${t.not_started_from} is not null and ${t.behind_since} is null and ${t.slightly_since} is null and ${t.failing_since} is null and ${t.finished_since} is null`,
      ),
    index('participant_followup_snoozed_idx')
      .on(t.snoozed_until)
      .where(sql`${t.snoozed_until} is not null`),
    index('participant_followup_assessment_idx')
      .on(t.assessment_due_from, t.participant_id)
      .where(sql`${t.assessment_due_from} is not null`),
    // The worklist's total: the participants with assessments due and no other reason, counted
    // from the index alone (followup/worklist.ts).
    index('participant_followup_assessment_only_idx')
      .on(
        t.assessment_due_from,
        t.assessment_due_on,
        t.assessment_due_until,
        t.silent_from,
        t.not_started_from,
        t.site_id,
      )
      .where(
        sql`${t.assessment_due_from} is not null and ${t.behind_since} is null and ${t.slightly_since} is null and ${t.failing_since} is null and ${t.finished_since} is null`,
      ),
    // The daily job moves on the stretches that have ended: these rows, not every participant.
    index('participant_followup_assessment_until_idx')
      .on(t.assessment_due_until)
      .where(sql`${t.assessment_due_until} is not null`),
  ],
);

/**
 * Changes to how many participants have each follow-up reason that does not depend on the time of
 * day (`listed`: any of them), written by triggers on participant_followup (drizzle 0016) in the
 * transaction that made them, like participant_tally: the worklist's total sums these few rows
 * instead of counting tens of thousands of index entries per request. Folded by the daily job.
 */
export const followupTally = pgTable(
  'followup_tally',
  {
    tally_id: bigserial('tally_id', { mode: 'number' }).primaryKey(),
    /**
     * listed, behind, slightly_behind, reminders_failing or programme_finished (day null); or, by
     * the day their time falls on, the tablets silent and the participants not started, each also
     * among those with none of the kept reasons: tablet_silent, not_started, tablet_silent_only,
     * not_started_only (drizzle 0034).
     */
    reason: text('reason').notNull(),
    /** The participants' site. */
    site_id: integer('site_id').notNull(),
    /** A reason of the clock's: the UTC day of silent_from or not_started_from. */
    day: date('day', { mode: 'string' }),
    delta: integer('delta').notNull(),
  },
  // A fold leaves the table's pages empty until they are vacuumed away: the sums read the index.
  (t) => [index('followup_tally_reason_idx').on(t.reason, t.day, t.site_id, t.delta)],
);

/**
 * Settings of the programme the database's own logic needs: `time_zone`, the programme's calendar
 * (ADHERENCE_CHECK_TZ), written by the server at start, so that triggers count days as the server
 * does (assessment_due_refresh()).
 */
export const programmeSettings = pgTable('programme_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * The catalogue of outcome measures: numeric ones (a value in a UCUM unit) and questionnaires
 * (items with their allowed answers, scored by `scoring`). Data, not code, so full access adds one
 * without a release; global to the instance. A measure with results never changes what it records
 * (the server refuses it): only its name and `retired` may change, and a new version is a new measure.
 */
export const outcomeMeasures = pgTable(
  'outcome_measures',
  {
    measure_id: serial('measure_id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** contract MEASURE_KINDS */
    kind: text('kind').notNull(),
    /** UCUM code (contract MEASURE_UNITS); `{score}` for a questionnaire. */
    unit: text('unit').notNull(),
    min: doublePrecision('min').notNull(),
    max: doublePrecision('max').notNull(),
    decimals: integer('decimals').notNull().default(0),
    higher_is_better: boolean('higher_is_better').notNull(),
    /** Minimal clinically important difference, in the unit; null when none is known. */
    mcid: doublePrecision('mcid'),
    mcid_source: text('mcid_source'),
    instructions: text('instructions'),
    licence: text('licence'),
    loinc: text('loinc'),
    /** Questionnaires only: sum or mean (contract SCORING_RULES). */
    scoring: text('scoring'),
    /** Questionnaires only: [{ item_id, text, reversed?, answers: [{ value, label }] }]. */
    items: jsonb('items').$type<
      {
        item_id: string;
        text: string;
        reversed?: boolean;
        answers: { value: number; label: string }[];
      }[]
    >(),
    retired: boolean('retired').notNull().default(false),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('outcome_measures_code_key').on(sql`lower(${t.code})`),
    check('outcome_measures_kind_check', sql`${t.kind} in ('numeric', 'questionnaire')`),
    check('outcome_measures_range_check', sql`${t.min} <= ${t.max}`),
    check('outcome_measures_decimals_check', sql`${t.decimals} between 0 and 4`),
    check(
      'outcome_measures_questionnaire_check',
      sql`(${t.kind} = 'questionnaire') = (${t.scoring} is not null and ${t.items} is not null)`,
    ),
    check('outcome_measures_scoring_check', sql`${t.scoring} is null or ${t.scoring} in ('sum', 'mean')`),
  ],
);

/**
 * A video set's assessment schedule: a row per timepoint and measure, in `position` order. Baseline
 * and end have no week; an interim names its programme week.
 */
export const assessmentSchedules = pgTable(
  'assessment_schedules',
  {
    fitness_video_set_id: integer('fitness_video_set_id')
      .notNull()
      .references(() => videoSets.fitness_video_set_id, { onDelete: 'cascade' }),
    /** contract TIMEPOINTS */
    timepoint: text('timepoint').notNull(),
    week: integer('week'),
    measure_id: integer('measure_id')
      .notNull()
      .references(() => outcomeMeasures.measure_id),
    position: integer('position').notNull(),
  },
  (t) => [
    unique('assessment_schedules_key')
      .on(t.fitness_video_set_id, t.timepoint, t.week, t.measure_id)
      .nullsNotDistinct(),
    check('assessment_schedules_timepoint_check', sql`${t.timepoint} in ('baseline', 'interim', 'end')`),
    check('assessment_schedules_week_check', sql`(${t.timepoint} = 'interim') = (${t.week} is not null)`),
    index('assessment_schedules_measure_idx').on(t.measure_id),
  ],
);

/**
 * Every outcome result recorded against a participant, and every amendment of one. Append-only (a
 * trigger refuses updates): a correction is a new row whose `amends` names the first result, with a
 * reason, and the newest row of a result is the one reports use; an amendment marked
 * `entered_in_error` takes the result out of them. Kept with the participant's record (subject
 * access) and destroyed with it.
 */
export const assessmentResults = pgTable(
  'assessment_results',
  {
    assessment_id: bigserial('assessment_id', { mode: 'number' }).primaryKey(),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participants.participant_id, { onDelete: 'cascade' }),
    measure_id: integer('measure_id')
      .notNull()
      .references(() => outcomeMeasures.measure_id),
    /** contract TIMEPOINTS; an amendment repeats its result's. */
    timepoint: text('timepoint').notNull(),
    /** The programme week of an interim result. */
    week: integer('week'),
    taken_on: date('taken_on', { mode: 'string' }).notNull(),
    /** A numeric measure's value as entered, in the measure's unit. */
    value: doublePrecision('value'),
    /** A questionnaire's answers: { [item_id]: value }. */
    answers: jsonb('answers').$type<Record<string, number>>(),
    /** The value, or the questionnaire's score computed by the server; null when entered in error. */
    score: doublePrecision('score'),
    entered_in_error: boolean('entered_in_error').notNull().default(false),
    /** Identifiable free text: full access only. */
    note: text('note'),
    /** On an amendment: the first result of the chain it corrects. */
    amends: bigint('amends', { mode: 'number' }).references(
      (): AnyPgColumn => assessmentResults.assessment_id,
      {
        onDelete: 'cascade',
      },
    ),
    /** Why an amendment was made (identifiable free text: full access only). */
    reason: text('reason'),
    admin_user_id: integer('admin_user_id'),
    admin_user_name: text('admin_user_name').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    check('assessment_results_timepoint_check', sql`${t.timepoint} in ('baseline', 'interim', 'end')`),
    check('assessment_results_week_check', sql`(${t.timepoint} = 'interim') = (${t.week} is not null)`),
    check('assessment_results_amendment_check', sql`(${t.amends} is null) = (${t.reason} is null)`),
    check(
      'assessment_results_score_check',
      sql`(${t.score} is null) = ${t.entered_in_error} and (not ${t.entered_in_error} or ${t.amends} is not null)`,
    ),
    // A participant's results of one measure and timepoint (the report, what is due) in one range,
    // amendments beside the results they correct.
    index('assessment_results_participant_idx').on(
      t.participant_id,
      t.measure_id,
      t.timepoint,
      t.assessment_id,
    ),
    index('assessment_results_amends_idx')
      .on(t.amends)
      .where(sql`${t.amends} is not null`),
    index('assessment_results_measure_idx').on(t.measure_id),
  ],
);
