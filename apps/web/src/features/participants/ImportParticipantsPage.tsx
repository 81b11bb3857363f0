import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  PARTICIPANT_IMPORT_COLUMNS,
  apiRoutes,
  limits,
  messages,
  type ParticipantImportReport,
} from '@pathway/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { WarningAlert } from '../../components/WarningAlert';
import { callWithFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { deviceKeys, participantKeys } from '../../lib/queryKeys';

/** The template: the header line the import reads, as the participant export writes its files. */
function downloadTemplate() {
  const text = `\uFEFF${PARTICIPANT_IMPORT_COLUMNS.join(',')}\r\n`;
  saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), 'participants-import-template.csv');
}

function sendFile(file: File, dryRun: boolean) {
  return callWithFile(
    apiRoutes.participants.import,
    { type: 'text/csv', data: file },
    { query: { dry_run: dryRun } },
  );
}

function Step({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Typography id={id} variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function ErrorTable({ errors }: { errors: ParticipantImportReport['errors'] }) {
  return (
    <TableContainer sx={{ maxHeight: 420 }} tabIndex={0} aria-label="Errors by line (scrollable)">
      <Table size="small" stickyHeader aria-label="Errors by line">
        <TableHead>
          <TableRow>
            <TableCell>Line</TableCell>
            <TableCell>Column</TableCell>
            <TableCell>Problem</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {errors.map((e, i) => (
            <TableRow key={`${e.line}-${e.column ?? ''}-${i}`}>
              <TableCell>{e.line}</TableCell>
              <TableCell>{e.column ?? 'the whole line'}</TableCell>
              <TableCell>{e.message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function WarningTable({ warnings }: { warnings: ParticipantImportReport['warnings'] }) {
  return (
    <Table size="small" aria-label="Possible duplicates by line">
      <TableHead>
        <TableRow>
          <TableCell>Line</TableCell>
          <TableCell>Possible duplicate</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {warnings.map((w, i) => (
          <TableRow key={`${w.line}-${i}`}>
            <TableCell>{w.line}</TableCell>
            <TableCell>
              {w.message}
              {w.participant_ids.map((id) => (
                <span key={id}>
                  {' '}
                  <Link component={RouterLink} to={`/participants?q=${id}`}>
                    Participant {id}
                  </Link>
                </span>
              ))}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Bulk referrals from CSV: the template, the file checked by the server with the add
 * form's rules (errors by line and column), and the import, all rows or none.
 */
export function ImportParticipantsPage() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const check = useMutation({ mutationFn: (chosen: File) => sendFile(chosen, true) });
  const run = useMutation({
    mutationFn: (chosen: File) => sendFile(chosen, false),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: participantKeys.all }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
      ]),
  });

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    // The same file may be chosen again once corrected: the input forgets it.
    event.target.value = '';
    if (!chosen) return;
    setFile(chosen);
    run.reset();
    check.mutate(chosen);
  }

  const report = check.data;
  const imported = run.data;

  return (
    <>
      <PageHeader
        title="Import participants"
        actions={
          <Button component={RouterLink} to="/participants">
            Back to participants
          </Button>
        }
      >
        Add many referrals at once from a CSV file. Every row is checked with the rules of the add form, and
        nothing is imported unless every row is valid. Imported participants have no device or programme yet:
        give each one from the participants list.
      </PageHeader>

      <Step title="1. Download the template">
        <Typography sx={{ mb: 2 }}>
          One participant a line, under the template&apos;s header line. Dates are written YYYY-MM-DD;
          yes-or-no columns take true or false; the NHS number is optional (10 digits, spaces allowed). In a
          spreadsheet, save the file as &quot;CSV UTF-8 (comma delimited)&quot;. At most{' '}
          {limits.participantImportMaxRows.toLocaleString('en-GB')} rows and{' '}
          {limits.participantImportMaxBytes / 1024 / 1024} MB.
        </Typography>
        <Button variant="outlined" startIcon={<FileDownloadOutlinedIcon />} onClick={downloadTemplate}>
          Download template
        </Button>
      </Step>

      <Step title="2. Choose the file and check it">
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 2 }}>
          <Button
            variant="outlined"
            component="label"
            htmlFor={inputId}
            startIcon={<UploadFileOutlinedIcon />}
            loading={check.isPending}
          >
            Choose CSV file
          </Button>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file of participants"
            onChange={choose}
            style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
          />
          {file && <Typography aria-live="polite">{file.name}</Typography>}
        </Box>

        {check.error && <WarningAlert message={check.error.message} />}

        {report && !imported && (
          <Box aria-live="polite">
            {report.errors.length > 0 ? (
              <Alert severity="error" sx={{ mb: 2 }}>
                <AlertTitle>
                  {report.errors.length} {report.errors.length === 1 ? 'error' : 'errors'} in {report.rows}{' '}
                  {report.rows === 1 ? 'row' : 'rows'}: nothing can be imported yet
                </AlertTitle>
                Correct each line below in the file (line 1 is the header, as in the spreadsheet), save it and
                choose it again.
              </Alert>
            ) : (
              <Alert severity="success" sx={{ mb: 2 }}>
                <AlertTitle>
                  All {report.rows} {report.rows === 1 ? 'row is' : 'rows are'} valid
                </AlertTitle>
                Check any possible duplicates below, then import.
              </Alert>
            )}
            {report.errors.length > 0 && <ErrorTable errors={report.errors} />}
            {report.warnings.length > 0 && (
              <Box sx={{ mt: 3 }}>
                <Alert severity="warning" sx={{ mb: 1 }}>
                  {report.warnings.length} {report.warnings.length === 1 ? 'row looks' : 'rows look'} like a
                  participant already registered or another row of the file. They will be imported all the
                  same: check they are not the same person.
                </Alert>
                <WarningTable warnings={report.warnings} />
              </Box>
            )}
          </Box>
        )}
      </Step>

      {report && report.errors.length === 0 && file && (
        <Step title="3. Import">
          {run.error && <WarningAlert message={run.error.message} />}
          {imported ? (
            <Alert severity="success" role="status">
              <AlertTitle>{messages.participantImport.imported(imported.participant_ids.length)}</AlertTitle>
              They wait for a device and a programme.{' '}
              <Link component={RouterLink} to="/participants">
                Go to the participants list
              </Link>
            </Alert>
          ) : (
            <Button variant="contained" loading={run.isPending} onClick={() => run.mutate(file)}>
              Import {report.rows} {report.rows === 1 ? 'participant' : 'participants'}
            </Button>
          )}
        </Step>
      )}
    </>
  );
}
