import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import {
  NO_DEVICE,
  PARTICIPANT_STATUS_LABELS,
  WITHDRAWAL_REASON_LABELS,
  REFERRAL_FIELDS,
  apiRoutes,
  fieldLabel,
  formatNhsNumber,
  hasContactData,
  messages,
  participantField,
  type DischargeOutcome,
  type ParticipantFieldName,
  type ParticipantFull,
  type ParticipantView,
  type Referral,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { format, isValid, parseISO } from 'date-fns';
import { Suspense, useState, type ReactNode } from 'react';
import { PageLoading } from '../../components/PageLoading';
import { QueryState } from '../../components/QueryState';
import { contactAgo, contactExact } from '../../lib/contactTime';
import { siteName, useSessionSites } from '../../lib/organisations';
import { participantProgressQuery } from '../../lib/participantProgress';
import { useParticipantRecord } from '../../lib/participantRecord';
import { useCanCall, useFieldAccess } from '../../lib/session';
import { participantQuery, referralQuery, useDownloadRecord, useRereferParticipant } from './api';
import { DischargeDialog } from './DischargeDialog';
import { ChangeDeviceDialog } from './ChangeDeviceDialog';
import { deviceLabel } from './deviceLabel';
import { TrackingChip } from './tracking';
import { TransferDialog } from './TransferDialog';
import { formFieldsOf, type FormField } from './participantFields';
import { participantTitle } from './participantTitle';

function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '220px 1fr' },
        columnGap: 2,
        rowGap: 1,
        m: 0,
      }}
    >
      {items.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            {term}
          </Typography>
          <Typography
            component="dd"
            sx={{ m: 0, mb: { xs: 1, sm: 0 }, wordBreak: 'break-word', whiteSpace: 'pre-line' }}
          >
            {value === null || value === undefined || value === '' ? '—' : value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function formatDob(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'dd/MM/yyyy') : iso;
}

/** A field's value as the details show it, by how the field table says it is typed. */
function shown(name: ParticipantFieldName, value: unknown): ReactNode {
  if (value === null || value === undefined) return null;
  switch (participantField(name).form?.input) {
    case 'date':
      return formatDob(value as string);
    case 'nhs':
      return formatNhsNumber(value as string) || null;
    case 'gender':
      return value === 'male' ? 'Male' : value === 'female' ? 'Female' : null;
    case 'yesNo':
      return value ? 'Yes' : 'No';
    default:
      return value as ReactNode;
  }
}

function ReferralFacts({ referral }: { referral: Referral }) {
  return (
    <Facts
      items={REFERRAL_FIELDS.map((name): [string, ReactNode] => [
        fieldLabel(name, 'details'),
        shown(name, referral[name]),
      ])}
    />
  );
}

/**
 * The form fields of the participant answer a role receives, in the add page's order: those
 * without a field permission (gender, language) or those with one (the contact fields).
 */
const detailFields = (guarded: boolean): FormField[] =>
  (['personal', 'contact', 'device'] as const).flatMap(formFieldsOf).filter((name) => {
    const spec = participantField(name);
    return spec.answer?.in === 'participant' && (spec.access !== undefined) === guarded;
  });
const OPEN_DETAILS = detailFields(false);
/** The first and last names are shown together, as the participant's name. */
const CONTACT_DETAILS = detailFields(true).filter((name) => name !== 'first_name' && name !== 'last_name');

/** Referral data is fetched (and so recorded in the audit trail) only when asked for. */
function ReferralSection({ participantId }: { participantId: number }) {
  const [shown, setShown] = useState(false);
  const referral = useQuery({ ...referralQuery(participantId), enabled: shown });
  if (!shown) {
    return (
      <Button variant="outlined" onClick={() => setShown(true)}>
        Show Referral
      </Button>
    );
  }
  return (
    <section aria-labelledby="participant-referral-heading">
      <Typography id="participant-referral-heading" variant="h3" sx={{ mb: 1.5 }}>
        Referral
      </Typography>
      <QueryState query={referral} loadingLabel="Loading the referral">
        {(data) => <ReferralFacts referral={data} />}
      </QueryState>
      <Button sx={{ mt: 1.5 }} onClick={() => setShown(false)}>
        Hide Referral
      </Button>
    </section>
  );
}

/**
 * Participant details (spec §2): tabs Details, then those other features add to the record
 * (lib/participantRecord.ts): Video Set, and, once the participant has progress, Progress and
 * Advanced settings; Contacts and Messages. A basic-access admin sees no identifiable data (the
 * server sends none); a full-access admin sees contact data and a Show Referral button.
 */
export function ParticipantDetailsDialog({
  participant: fromList,
  onClose,
}: {
  participant: ParticipantView;
  onClose: () => void;
}) {
  const canCall = useCanCall();
  const opens = useFieldAccess();
  // A device is a field of the participant's update that only some roles may change (no route of its own).
  const assignsDevices = opens('deviceAssignment');
  const [changingDevice, setChangingDevice] = useState(false);
  const [discharging, setDischarging] = useState<DischargeOutcome | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [transferred, setTransferred] = useState<string | null>(null);
  // The site is said, and a participant moved between sites, only where there is more than one.
  const sites = useSessionSites();
  const manySites = sites.length > 1;
  const transfers = manySites && canCall(apiRoutes.participants.transfer);
  const rerefer = useRereferParticipant();
  const download = useDownloadRecord();
  // The list's row until something changes; then the participant as the server has it now.
  const current = useQuery({
    ...participantQuery(fromList.participant_id),
    initialData: fromList,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const participant = current.data;
  const active = participant.status === 'active';
  const hasDevice = participant.unique_device_id !== NO_DEVICE;
  const progress = useQuery(participantProgressQuery(participant.participant_id));
  const otherTabs = useParticipantRecord().tabs.filter((t) => progress.data || !t.withProgrammeOnly);
  const [chosenTab, setTab] = useState('details');
  // The end of the programme: every exercise day's video seen (100 %).
  const programmeFinished = Number(progress.data?.percentage_progress ?? 0) >= 100;
  // A tab that is no longer offered (progress gone) falls back to Details.
  const shownTab = otherTabs.find((t) => t.value === chosenTab);
  const tab = shownTab?.value ?? 'details';
  const who = participantTitle(`Participant ${participant.participant_id}`, participant, { keepId: true });

  const common: Array<[string, ReactNode]> = [
    ['Participant ID', participant.participant_id],
    [
      'Status',
      active
        ? PARTICIPANT_STATUS_LABELS.active
        : `${PARTICIPANT_STATUS_LABELS[participant.status]}, discharged on ${participant.discharged_on ? formatDob(participant.discharged_on) : ''}${participant.discharge_reason ? ` (${WITHDRAWAL_REASON_LABELS[participant.discharge_reason]})` : ''}`,
    ],
    ...(manySites ? [['Site', siteName(sites, participant.site_id)] as [string, ReactNode]] : []),
    ['Tracking', <TrackingChip key="tracking" participant={participant} />],
    [
      'Tablet last in contact',
      participant.tablet_last_contact_at
        ? `${contactAgo(participant.tablet_last_contact_at)} (${contactExact(participant.tablet_last_contact_at)})`
        : 'Never',
    ],
    ...OPEN_DETAILS.map((name): [string, ReactNode] => [
      fieldLabel(name, 'details'),
      shown(name, participant[name as keyof typeof participant]),
    ]),
  ];
  const contact: Array<[string, ReactNode]> = hasContactData(participant)
    ? [
        ['Name', `${participant.first_name} ${participant.last_name}`],
        ...CONTACT_DETAILS.map((name): [string, ReactNode] => [
          fieldLabel(name, 'details'),
          shown(name, participant[name as keyof ParticipantFull]),
        ]),
        // Said only once there is one (a discharge with a note).
        ...(participant.discharge_note
          ? [[fieldLabel('discharge_note', 'details'), participant.discharge_note] as [string, ReactNode]]
          : []),
      ]
    : [];

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="participant-details-title">
      <DialogTitle id="participant-details-title">
        {/* The id stays (staff quote it); full access also reads whose details these are. */}
        {who}
      </DialogTitle>
      <Tabs
        value={tab}
        onChange={(_event, value: string) => setTab(value)}
        aria-label="Participant"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {[{ value: 'details', label: 'Details' }, ...otherTabs].map(({ value, label }) => (
          <Tab
            key={value}
            value={value}
            label={label}
            id={`participant-tab-${value}`}
            aria-controls={`participant-panel-${value}`}
          />
        ))}
      </Tabs>
      {shownTab && (
        <DialogContent
          id={`participant-panel-${shownTab.value}`}
          role="tabpanel"
          aria-labelledby={`participant-tab-${shownTab.value}`}
          // A panel longer than the dialog scrolls: focusable, so keyboard users can scroll it too.
          tabIndex={0}
          sx={{ minHeight: 320 }}
        >
          <Suspense fallback={<PageLoading label={`Loading ${shownTab.label}`} />}>
            <shownTab.Panel participantId={participant.participant_id} who={who} />
          </Suspense>
        </DialogContent>
      )}
      <DialogContent
        id="participant-panel-details"
        role="tabpanel"
        aria-labelledby="participant-tab-details"
        hidden={tab !== 'details'}
        tabIndex={tab === 'details' ? 0 : -1}
        sx={tab !== 'details' ? { display: 'none' } : undefined}
      >
        {!active && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {messages.lifeCycle.readOnly}
          </Alert>
        )}
        {active && programmeFinished && canCall(apiRoutes.participants.discharge) && (
          <Alert
            severity="success"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => setDischarging('completed')}>
                Discharge as completed
              </Button>
            }
          >
            {messages.lifeCycle.completedOffer}
          </Alert>
        )}
        <Facts items={[...contact, ...common]} />
        <Divider sx={{ my: 2.5 }} />
        <section aria-labelledby="participant-device-heading">
          <Typography id="participant-device-heading" variant="h3" sx={{ mb: 1 }}>
            Device
          </Typography>
          <Typography sx={{ mb: 1.5 }}>
            {hasDevice
              ? deviceLabel({ name: participant.name ?? '', uuid: participant.unique_device_id })
              : 'No device assigned'}
          </Typography>
          {/* Only full access assigns devices (the server refuses the rest). */}
          {assignsDevices && active && (
            <Button variant="outlined" onClick={() => setChangingDevice(true)}>
              {hasDevice ? 'Change device' : 'Assign a device'}
            </Button>
          )}
        </section>
        {canCall(apiRoutes.participants.referral) && (
          <>
            <Divider sx={{ my: 2.5 }} />
            <ReferralSection participantId={participant.participant_id} />
          </>
        )}
        {(canCall(apiRoutes.participants.discharge) ||
          canCall(apiRoutes.participants.record) ||
          transfers) && (
          <>
            <Divider sx={{ my: 2.5 }} />
            <section aria-labelledby="participant-participation-heading">
              <Typography id="participant-participation-heading" variant="h3" sx={{ mb: 1.5 }}>
                Participation
              </Typography>
              {rerefer.error && (
                <Alert severity="error" sx={{ mb: 1.5 }}>
                  {rerefer.error.message}
                </Alert>
              )}
              {transferred && (
                <Alert severity="success" sx={{ mb: 1.5 }}>
                  {transferred}
                </Alert>
              )}
              {download.error && (
                <Alert severity="error" sx={{ mb: 1.5 }}>
                  {download.error.message}
                </Alert>
              )}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
                {canCall(apiRoutes.participants.discharge) && active && (
                  <Button variant="outlined" onClick={() => setDischarging('withdrawn')}>
                    Discharge
                  </Button>
                )}
                {canCall(apiRoutes.participants.rerefer) && !active && (
                  <Button
                    variant="outlined"
                    loading={rerefer.isPending}
                    onClick={() =>
                      rerefer.mutate(participant.participant_id, { onSuccess: () => void current.refetch() })
                    }
                  >
                    Re-refer
                  </Button>
                )}
                {transfers && (
                  <Button variant="outlined" onClick={() => setTransferring(true)}>
                    Transfer
                  </Button>
                )}
                {canCall(apiRoutes.participants.record) && (
                  <Button
                    variant="outlined"
                    loading={download.isPending}
                    onClick={() => download.mutate(participant.participant_id)}
                  >
                    Download everything held
                  </Button>
                )}
              </Stack>
            </section>
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
      {discharging && (
        <DischargeDialog
          participant={participant}
          initialOutcome={discharging}
          onClose={() => setDischarging(null)}
          onDischarged={() => {
            setDischarging(null);
            void current.refetch();
          }}
        />
      )}
      {transferring && (
        <TransferDialog
          participant={participant}
          onClose={() => setTransferring(false)}
          onTransferred={(message) => {
            setTransferring(false);
            setTransferred(message);
            void current.refetch();
          }}
        />
      )}
      {assignsDevices && changingDevice && (
        <ChangeDeviceDialog participant={participant} onClose={() => setChangingDevice(false)} />
      )}
    </Dialog>
  );
}

/** The record of a participant known by id (the follow-up worklist's rows are not participants' answers). */
export function ParticipantRecordDialog({
  participantId,
  onClose,
}: {
  participantId: number;
  onClose: () => void;
}) {
  const participant = useQuery(participantQuery(participantId));
  if (!participant.data) return null;
  return <ParticipantDetailsDialog participant={participant.data} onClose={onClose} />;
}
