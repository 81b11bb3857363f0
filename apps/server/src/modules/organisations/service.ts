import { and, asc, eq, sql } from 'drizzle-orm';
import {
  messages,
  type CreateOrganisationInput,
  type CreateSiteInput,
  type Organisation,
  type Site,
  type UpdateOrganisationInput,
  type UpdateSiteInput,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { organisations, sites } from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { HttpError, conflict, notFound } from '../../lib/http-error.js';
import { AuditService, type AuditActor } from '../audit/index.js';
import { presentOrganisation, presentSite } from './presenter.js';

/** Who asks: their organisation, and whether they run the instance (and so see every organisation). */
export interface OrganisationReader {
  organisationId: number;
  systemAdministrator: boolean;
}

/** A duplicate name or ODS code, said as such (the unique indexes decide, as two requests may race). */
function duplicateOf(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const constraint = uniqueViolation(error);
  if (constraint === 'organisations_name_key') return conflict(messages.organisation.nameTaken);
  if (constraint === 'organisations_ods_code_key') return conflict(messages.organisation.odsCodeTaken);
  if (constraint === 'sites_organisation_name_key') return conflict(messages.organisation.siteNameTaken);
  return error;
}

/**
 * Organisations and their sites. Every admin reads their own organisation; a system administrator
 * reads and changes every one, with counts of participants but no participant record.
 */
export class OrganisationService {
  private readonly audit: AuditService;

  constructor(private readonly db: Database) {
    this.audit = new AuditService(db);
  }

  async list(reader: OrganisationReader): Promise<Organisation[]> {
    const rows = await this.db
      .select({
        organisation: organisations,
        // The outer row's column written with its table: drizzle writes a lone column unqualified,
        // which inside the subquery would name the subquery's own column (every row would match).
        sites: sql<number>`(select count(*)::int from ${sites} s where s.organisation_id = ${organisations}.organisation_id)`,
        // A count, never a participant record: organisation_participant_counts() (db/functions/organisation-scope.sql) sums
        // the tallies of every organisation for a system administrator, their own for anyone else.
        participants: sql<number>`coalesce((select c.participants from organisation_participant_counts() c where c.organisation_id = ${organisations}.organisation_id), 0)`,
      })
      .from(organisations)
      .where(
        reader.systemAdministrator ? undefined : eq(organisations.organisation_id, reader.organisationId),
      )
      .orderBy(asc(organisations.name), asc(organisations.organisation_id));
    return rows.map((row) => presentOrganisation(row.organisation, row.sites, row.participants));
  }

  /** A new organisation with its first site (same name and ODS code): a participant needs a site. */
  async create(body: CreateOrganisationInput, actor: AuditActor): Promise<Organisation> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(organisations)
          .values({ name: body.name, ods_code: body.ods_code })
          .returning();
        const [site] = await tx
          .insert(sites)
          .values({ organisation_id: row!.organisation_id, name: body.name, ods_code: body.ods_code })
          .returning();
        await this.audit.record(
          instanceRecord(actor),
          {
            action: 'organisation.create',
            detail: `${aboutOrganisation(row!)}, with site ${site!.name} (id ${site!.site_id})`,
          },
          tx,
        );
        return presentOrganisation(row!, 1, 0);
      });
    } catch (error) {
      throw duplicateOf(error);
    }
  }

  async update(id: number, body: UpdateOrganisationInput, actor: AuditActor): Promise<Organisation> {
    try {
      await this.db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(organisations)
          .where(eq(organisations.organisation_id, id))
          .for('update');
        if (!current) throw notFound(messages.organisation.notFound);
        const changes = {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.ods_code !== undefined && { ods_code: body.ods_code }),
        };
        if (Object.keys(changes).length === 0) return;
        await tx.update(organisations).set(changes).where(eq(organisations.organisation_id, id));
        await this.audit.record(
          instanceRecord(actor),
          {
            action: 'organisation.update',
            detail: `${aboutOrganisation(current)}: ${Object.keys(changes).join(', ')}`,
          },
          tx,
        );
      });
    } catch (error) {
      throw duplicateOf(error);
    }
    const [answer] = (await this.list({ organisationId: id, systemAdministrator: false })) as [Organisation];
    return answer;
  }

  /** An organisation's sites, for its own admins and system administrators; any other is not found. */
  async sites(organisationId: number, reader: OrganisationReader): Promise<Site[]> {
    await this.find(organisationId, reader);
    const rows = await this.db
      .select()
      .from(sites)
      .where(eq(sites.organisation_id, organisationId))
      .orderBy(asc(sites.name), asc(sites.site_id));
    return rows.map(presentSite);
  }

  async createSite(organisationId: number, body: CreateSiteInput, actor: AuditActor): Promise<Site> {
    try {
      return await this.db.transaction(async (tx) => {
        const [organisation] = await tx
          .select()
          .from(organisations)
          .where(eq(organisations.organisation_id, organisationId))
          .for('share');
        if (!organisation) throw notFound(messages.organisation.notFound);
        const [row] = await tx
          .insert(sites)
          .values({ organisation_id: organisationId, name: body.name, ods_code: body.ods_code ?? null })
          .returning();
        await this.audit.record(
          instanceRecord(actor),
          { action: 'site.create', detail: `${aboutSite(row!)} of ${aboutOrganisation(organisation)}` },
          tx,
        );
        return presentSite(row!);
      });
    } catch (error) {
      throw duplicateOf(error);
    }
  }

  async updateSite(id: number, body: UpdateSiteInput, actor: AuditActor): Promise<Site> {
    try {
      return await this.db.transaction(async (tx) => {
        const [current] = await tx.select().from(sites).where(eq(sites.site_id, id)).for('update');
        if (!current) throw notFound(messages.organisation.siteNotFound);
        const changes = {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.ods_code !== undefined && { ods_code: body.ods_code }),
        };
        if (Object.keys(changes).length === 0) return presentSite(current);
        const [row] = await tx.update(sites).set(changes).where(eq(sites.site_id, id)).returning();
        await this.audit.record(
          instanceRecord(actor),
          { action: 'site.update', detail: `${aboutSite(current)}: ${Object.keys(changes).join(', ')}` },
          tx,
        );
        return presentSite(row!);
      });
    } catch (error) {
      throw duplicateOf(error);
    }
  }

  private async find(id: number, reader: OrganisationReader) {
    const [row] = await this.db
      .select({ id: organisations.organisation_id })
      .from(organisations)
      .where(
        and(
          eq(organisations.organisation_id, id),
          reader.systemAdministrator ? undefined : eq(organisations.organisation_id, reader.organisationId),
        ),
      );
    if (!row) throw notFound(messages.organisation.notFound);
    return row;
  }
}

/** Organisations and sites are the instance's: their records are the instance's own trail. */
const instanceRecord = (actor: AuditActor): AuditActor => ({ ...actor, organisationId: null });

const aboutOrganisation = (row: { organisation_id: number; name: string }) =>
  `organisation ${row.name} (id ${row.organisation_id})`;
const aboutSite = (row: { site_id: number; name: string }) => `site ${row.name} (id ${row.site_id})`;
