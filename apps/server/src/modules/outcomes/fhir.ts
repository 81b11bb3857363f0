import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { messages, unitLabel } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { assessmentResults, outcomeMeasures, participants } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import type { MeasureRow, ResultRow } from './presenter.js';

/**
 * A participant and their outcome results as a FHIR R4 Bundle of type collection: the Patient
 * (NHS number as its identifier), an Observation per numeric result (its LOINC code where the
 * measure has one, its UCUM unit) and a QuestionnaireResponse per questionnaire result with the
 * Questionnaire it answers. Each result is given as it stands now (amendments applied): status
 * `final` or `completed`, `amended` once corrected, `entered-in-error` when withdrawn, so that a
 * receiver replaces or retracts what it took before. Identifiable: full access only, audited.
 */
export const NHS_NUMBER_SYSTEM = 'https://fhir.nhs.uk/Id/nhs-number';
export const LOINC_SYSTEM = 'http://loinc.org';
export const UCUM_SYSTEM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

type FhirResource = Record<string, unknown> & { resourceType: string; id: string };
export interface FhirBundle {
  resourceType: 'Bundle';
  type: 'collection';
  timestamp: string;
  entry: { fullUrl: string; resource: FhirResource }[];
}

/** A result chain as it stands: the first row and the newest (the same row when never amended). */
interface Chain {
  first: ResultRow;
  newest: ResultRow;
}

function chainsOf(rows: ResultRow[]): Chain[] {
  const chains = new Map<number, Chain>();
  for (const row of [...rows].sort((a, b) => a.assessment_id - b.assessment_id)) {
    const root = row.amends ?? row.assessment_id;
    const chain = chains.get(root);
    if (chain) chain.newest = row;
    else chains.set(root, { first: row, newest: row });
  }
  return [...chains.values()];
}

function statusOf(chain: Chain, final: 'final' | 'completed'): string {
  if (chain.newest.entered_in_error) return 'entered-in-error';
  return chain.newest.amends === null ? final : 'amended';
}

/** The extensions that say which assessment of the programme a result is (baseline, week 6, end). */
function timepointExtensions(origin: string, row: ResultRow): Record<string, unknown>[] {
  return [
    { url: `${origin}/fhir/StructureDefinition/assessment-timepoint`, valueCode: row.timepoint },
    ...(row.week !== null
      ? [{ url: `${origin}/fhir/StructureDefinition/assessment-week`, valueInteger: row.week }]
      : []),
  ];
}

function questionnaireOf(measure: MeasureRow, origin: string): FhirResource {
  const items = measure.items ?? [];
  return {
    resourceType: 'Questionnaire',
    id: `measure-${measure.measure_id}`,
    url: `${origin}/fhir/Questionnaire/measure-${measure.measure_id}`,
    name: `Measure${measure.measure_id}`,
    title: measure.name,
    status: measure.retired ? 'retired' : 'active',
    ...(measure.loinc && { code: [{ system: LOINC_SYSTEM, code: measure.loinc }] }),
    ...(measure.licence && { copyright: measure.licence }),
    ...(measure.instructions && { description: measure.instructions }),
    item: [
      ...items.map((item) => ({
        linkId: item.item_id,
        text: item.reversed ? `${item.text} (scored in reverse)` : item.text,
        type: 'choice',
        required: true,
        answerOption: item.answers.map((a) => ({ valueCoding: { code: String(a.value), display: a.label } })),
      })),
      {
        linkId: 'score',
        text: `Score: the ${measure.scoring === 'mean' ? 'mean' : 'sum'} of the items' values`,
        type: 'decimal',
        readOnly: true,
      },
    ],
  };
}

function observationOf(chain: Chain, measure: MeasureRow, patientUrl: string, origin: string): FhirResource {
  const row = chain.newest;
  return {
    resourceType: 'Observation',
    id: `assessment-${chain.first.assessment_id}`,
    extension: timepointExtensions(origin, row),
    status: statusOf(chain, 'final'),
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'exam', display: 'Exam' }] }],
    code: {
      ...(measure.loinc && { coding: [{ system: LOINC_SYSTEM, code: measure.loinc }] }),
      text: measure.name,
    },
    subject: { reference: patientUrl },
    effectiveDateTime: row.taken_on,
    issued: row.created_at.toISOString(),
    ...(row.score !== null && {
      valueQuantity: {
        value: row.score,
        unit: unitLabel(measure.unit),
        system: UCUM_SYSTEM,
        code: measure.unit,
      },
    }),
    ...(chain.first.note && { note: [{ text: chain.first.note }] }),
  };
}

function responseOf(
  chain: Chain,
  measure: MeasureRow,
  patientUrl: string,
  questionnaireUrl: string,
  origin: string,
): FhirResource {
  const row = chain.newest;
  const items = measure.items ?? [];
  const answers = row.answers ?? {};
  return {
    resourceType: 'QuestionnaireResponse',
    id: `assessment-${chain.first.assessment_id}`,
    extension: timepointExtensions(origin, row),
    questionnaire: questionnaireUrl,
    status: statusOf(chain, 'completed'),
    subject: { reference: patientUrl },
    authored: row.created_at.toISOString(),
    ...(row.score !== null && {
      item: [
        ...items.map((item) => {
          const value = answers[item.item_id]!;
          const label = item.answers.find((a) => a.value === value)?.label ?? String(value);
          return {
            linkId: item.item_id,
            text: item.text,
            answer: [{ valueCoding: { code: String(value), display: label } }],
          };
        }),
        { linkId: 'score', text: 'Score', answer: [{ valueDecimal: row.score }] },
      ],
    }),
  };
}

const GENDERS: Record<string, string> = { male: 'male', female: 'female' };

export class FhirExport {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  /** The participant's bundle; the read is audited before anything is handed out. */
  async bundle(participantId: number, actor: AuditActor, origin: string, now: Date): Promise<FhirBundle> {
    const [p] = await this.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, participantId));
    if (!p) throw notFound(messages.participant.notFound);
    const rows = await this.db
      .select()
      .from(assessmentResults)
      .where(eq(assessmentResults.participant_id, participantId))
      .orderBy(asc(assessmentResults.assessment_id));
    const measureIds = [...new Set(rows.map((r) => r.measure_id))];
    const measures = new Map(
      (measureIds.length === 0
        ? []
        : await this.db.select().from(outcomeMeasures).where(inArray(outcomeMeasures.measure_id, measureIds))
      ).map((m) => [m.measure_id, m]),
    );
    const urn = () => `urn:uuid:${randomUUID()}`;
    const patientUrl = urn();
    const patient: FhirResource = {
      resourceType: 'Patient',
      id: `participant-${p.participant_id}`,
      ...(p.nhs_number && { identifier: [{ system: NHS_NUMBER_SYSTEM, value: p.nhs_number }] }),
      active: p.status === 'active',
      name: [{ use: 'official', family: p.last_name, given: [p.first_name] }],
      telecom: [
        { system: 'phone', value: p.phone_number, rank: 1 },
        ...(p.phone_number_secondary ? [{ system: 'phone', value: p.phone_number_secondary, rank: 2 }] : []),
        ...(p.email ? [{ system: 'email', value: p.email }] : []),
      ],
      ...(p.gender && { gender: GENDERS[p.gender] ?? 'unknown' }),
      birthDate: p.date_of_birth,
      address: [{ text: p.address }],
    };
    const entry: FhirBundle['entry'] = [{ fullUrl: patientUrl, resource: patient }];
    const questionnaires = new Map<number, string>();
    const chains = chainsOf(rows);
    for (const chain of chains) {
      const measure = measures.get(chain.first.measure_id)!;
      if (measure.kind === 'numeric') {
        entry.push({ fullUrl: urn(), resource: observationOf(chain, measure, patientUrl, origin) });
        continue;
      }
      let questionnaireUrl = questionnaires.get(measure.measure_id);
      if (!questionnaireUrl) {
        const questionnaire = questionnaireOf(measure, origin);
        questionnaireUrl = questionnaire.url as string;
        questionnaires.set(measure.measure_id, questionnaireUrl);
        entry.push({ fullUrl: questionnaireUrl, resource: questionnaire });
      }
      entry.push({
        fullUrl: urn(),
        resource: responseOf(chain, measure, patientUrl, questionnaireUrl, origin),
      });
    }
    await this.audit.record(actor, {
      action: 'participant.fhir',
      participantId,
      detail: `FHIR bundle: patient, ${chains.length} results (${questionnaires.size} questionnaires)`,
    });
    return { resourceType: 'Bundle', type: 'collection', timestamp: now.toISOString(), entry };
  }
}
