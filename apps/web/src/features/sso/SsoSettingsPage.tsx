import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  FULL_ACCESS,
  ROLES,
  ROLE_LABELS,
  messages,
  type Role,
  type SsoClientAuth,
  type SsoConfig,
  type SsoConfigBody,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useSession } from '../../lib/session';
import { ssoSettingsQuery, useSaveSsoSettings, useTestSsoConnection } from './api';

const CLIENT_AUTH_LABELS: Record<SsoClientAuth, string> = {
  client_secret_basic: 'Client secret (client_secret_basic)',
  private_key_jwt: 'Key pair made by Pathway (private_key_jwt)',
};

interface RoleRow {
  value: string;
  role: Role;
}

/** The form's state: lists typed as text (one item a line or comma), optional settings as ''. */
interface Form {
  issuer: string;
  client_id: string;
  client_secret: string;
  client_auth: SsoClientAuth;
  email_domains: string;
  role_claim: string;
  role_map: RoleRow[];
  site_claim: string;
  scopes: string;
  acr_values: string;
  jit: boolean;
  required: boolean;
  break_glass: string;
}

function formOf(config: SsoConfig): Form {
  const roleMap = Object.entries(config.role_map).map(([value, role]) => ({ value, role }));
  return {
    issuer: config.issuer ?? '',
    client_id: config.client_id ?? '',
    client_secret: '',
    client_auth: config.client_auth ?? 'client_secret_basic',
    email_domains: config.email_domains.join('\n'),
    role_claim: config.role_claim ?? '',
    role_map: roleMap.length > 0 ? roleMap : [{ value: '', role: FULL_ACCESS }],
    site_claim: config.site_claim ?? '',
    scopes: config.scopes ?? '',
    acr_values: config.acr_values ?? '',
    jit: config.jit,
    required: config.required,
    break_glass: config.break_glass.join('\n'),
  };
}

/** A list typed one item a line (or separated by commas or spaces). */
const listOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const optional = (text: string) => (text.trim() === '' ? null : text.trim());

/** The PUT body; the server checks every value (its messages show above the form). */
function bodyOf(form: Form): SsoConfigBody {
  return {
    issuer: form.issuer,
    client_id: form.client_id,
    // Left blank: the stored secret stays. A key pair needs none.
    client_secret:
      form.client_auth === 'client_secret_basic' && form.client_secret !== ''
        ? form.client_secret
        : undefined,
    client_auth: form.client_auth,
    email_domains: listOf(form.email_domains),
    role_claim: form.role_claim,
    role_map: Object.fromEntries(
      form.role_map.filter((row) => row.value.trim() !== '').map((row) => [row.value.trim(), row.role]),
    ),
    site_claim: optional(form.site_claim),
    scopes: optional(form.scopes),
    acr_values: optional(form.acr_values),
    jit: form.jit,
    required: form.required,
    break_glass: listOf(form.break_glass),
  };
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Typography id={id} variant="h2" sx={{ mb: 2.5 }}>
        {title}
      </Typography>
      <Stack spacing={2.5}>{children}</Stack>
    </Paper>
  );
}

/**
 * The organisation's single sign-on (OpenID Connect) settings, for full access: its provider, the
 * email domains it serves, how its claims map to roles, whether it is required (and who keeps
 * password sign-in then), and a "Test connection" that says in words what is wrong.
 */
export function SsoSettingsPage() {
  const organisationId = useSession()?.organisation_id;
  return (
    <>
      <PageHeader title="Single sign-on">
        Staff of your organisation sign in with its own identity provider (NHS CIS2, Microsoft Entra ID).
      </PageHeader>
      {organisationId === undefined ? null : <SsoSettings organisationId={organisationId} />}
    </>
  );
}

function SsoSettings({ organisationId }: { organisationId: number }) {
  const settings = useQuery(ssoSettingsQuery(organisationId));
  return (
    <QueryState query={settings} loadingLabel="Loading the single sign-on settings">
      {(config) => (
        <SsoSettingsForm key={config.organisation_id} config={config} organisationId={organisationId} />
      )}
    </QueryState>
  );
}

function SsoSettingsForm({ config, organisationId }: { config: SsoConfig; organisationId: number }) {
  const [form, setForm] = useState<Form>(() => formOf(config));
  const save = useSaveSsoSettings(organisationId);
  const test = useTestSsoConnection(organisationId);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    save.reset();
  };
  const setRow = (index: number, row: Partial<RoleRow>) =>
    set(
      'role_map',
      form.role_map.map((current, i) => (i === index ? { ...current, ...row } : current)),
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    test.reset();
    save.mutate(bodyOf(form), { onSuccess: () => setForm((current) => ({ ...current, client_secret: '' })) });
  };

  const runTest = () =>
    test.mutate({
      issuer: form.issuer,
      client_auth: form.client_auth,
      acr_values: optional(form.acr_values),
    });

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Single sign-on settings">
      {save.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2.5 }}>
          {save.error.message}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert severity="success" role="status" sx={{ mb: 2.5 }}>
          {messages.sso.saved}
        </Alert>
      )}
      <Section id="sso-provider" title="Identity provider">
        <TextField
          id="sso-issuer"
          label="Issuer URL"
          required
          value={form.issuer}
          onChange={(e) => set('issuer', e.target.value)}
          helperText="The provider's issuer; Pathway reads <issuer>/.well-known/openid-configuration"
          inputProps={{ spellCheck: false }}
        />
        <TextField
          id="sso-client-id"
          label="Client ID"
          required
          value={form.client_id}
          onChange={(e) => set('client_id', e.target.value)}
          helperText="Pathway's client ID at the provider"
          inputProps={{ spellCheck: false }}
        />
        <TextField
          id="sso-client-auth"
          select
          label="Client authentication"
          value={form.client_auth}
          onChange={(e) => set('client_auth', e.target.value as SsoClientAuth)}
          helperText={
            form.client_auth === 'private_key_jwt'
              ? `Register the key set address at the provider: ${config.jwks_uri}`
              : 'The secret the provider gave for Pathway'
          }
        >
          {Object.entries(CLIENT_AUTH_LABELS).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        {form.client_auth === 'client_secret_basic' && (
          <TextField
            id="sso-client-secret"
            label="Client secret"
            type="password"
            autoComplete="new-password"
            value={form.client_secret}
            onChange={(e) => set('client_secret', e.target.value)}
            helperText={
              config.client_secret_set
                ? 'A secret is stored (it is never shown). Leave blank to keep it.'
                : 'Stored sealed; it is never shown again.'
            }
          />
        )}
        <TextField
          id="sso-scopes"
          label="Extra scopes (optional)"
          value={form.scopes}
          onChange={(e) => set('scopes', e.target.value)}
          helperText="Asked for beside openid, profile and email, separated by spaces (CIS2: nationalrbacaccess)"
          inputProps={{ spellCheck: false }}
        />
        <TextField
          id="sso-acr-values"
          label="acr_values (optional)"
          value={form.acr_values}
          onChange={(e) => set('acr_values', e.target.value)}
          helperText="The levels of assurance to ask for, separated by spaces (CIS2: AAL3_ANY)"
          inputProps={{ spellCheck: false }}
        />
        <Box>
          <Button variant="outlined" onClick={runTest} loading={test.isPending}>
            Test connection
          </Button>
        </Box>
        {test.isError && (
          <Alert severity="error" role="alert">
            {test.error.message}
          </Alert>
        )}
        {test.data && (
          <Alert severity={test.data.ok ? 'success' : 'error'} role="status" aria-label="Connection test">
            <Typography sx={{ fontWeight: 600 }}>{test.data.message}</Typography>
            <List dense disablePadding>
              {test.data.checks.map((check) => (
                <ListItem key={check.check} disableGutters>
                  <ListItemText primary={`${check.ok ? '✓' : '✗'} ${check.check}`} secondary={check.detail} />
                </ListItem>
              ))}
            </List>
          </Alert>
        )}
      </Section>

      <Section id="sso-people" title="Who signs in with it">
        <TextField
          id="sso-email-domains"
          label="Email domains"
          multiline
          minRows={2}
          value={form.email_domains}
          onChange={(e) => set('email_domains', e.target.value)}
          helperText="One a line (nhs.net): the sign-in page sends these work emails to the provider"
          inputProps={{ spellCheck: false }}
        />
        <FormControlLabel
          control={<Switch checked={form.jit} onChange={(e) => set('jit', e.target.checked)} />}
          label="Add people on their first sign-in (just in time), with the role their claims give"
        />
        <FormControlLabel
          control={<Switch checked={form.required} onChange={(e) => set('required', e.target.checked)} />}
          label="Require single sign-on: password sign-in only for the break-glass accounts below"
        />
        <TextField
          id="sso-break-glass"
          label="Break-glass accounts"
          multiline
          minRows={2}
          value={form.break_glass}
          onChange={(e) => set('break_glass', e.target.value)}
          helperText="User names, one a line, that keep password and code sign-in for when the provider is down (at least one of full access). Each of their sign-ins is shown on the dashboard."
          inputProps={{ spellCheck: false }}
        />
      </Section>

      <Section id="sso-claims" title="Roles and sites from the claims">
        <TextField
          id="sso-role-claim"
          label="Role claim"
          required
          value={form.role_claim}
          onChange={(e) => set('role_claim', e.target.value)}
          helperText="The claim that carries the role (roles, or a path such as nhsid_nrbac_roles.role_code)"
          inputProps={{ spellCheck: false }}
        />
        <Box role="group" aria-labelledby="sso-role-map-label">
          <Typography id="sso-role-map-label" sx={{ mb: 1.5 }}>
            Values of the role claim and the access they give (someone with none of them cannot sign in)
          </Typography>
          <Stack spacing={1.5}>
            {form.role_map.map((row, index) => (
              <Stack key={index} direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                <TextField
                  label={`Claim value ${index + 1}`}
                  value={row.value}
                  onChange={(e) => setRow(index, { value: e.target.value })}
                  sx={{ flex: 2 }}
                  inputProps={{ spellCheck: false }}
                />
                <TextField
                  select
                  label={`Access for value ${index + 1}`}
                  value={row.role}
                  onChange={(e) => setRow(index, { role: e.target.value as Role })}
                  sx={{ flex: 1 }}
                >
                  {ROLES.map((role) => (
                    <MenuItem key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton
                  aria-label={`Remove claim value ${index + 1}`}
                  disabled={form.role_map.length === 1}
                  onClick={() =>
                    set(
                      'role_map',
                      form.role_map.filter((_, i) => i !== index),
                    )
                  }
                >
                  <DeleteOutlineIcon />
                </IconButton>
              </Stack>
            ))}
          </Stack>
          <Button
            startIcon={<AddIcon />}
            sx={{ mt: 1 }}
            onClick={() => set('role_map', [...form.role_map, { value: '', role: FULL_ACCESS }])}
          >
            Add a claim value
          </Button>
        </Box>
        <TextField
          id="sso-site-claim"
          label="Site claim (optional)"
          value={form.site_claim}
          onChange={(e) => set('site_claim', e.target.value)}
          helperText="The claim that carries the person's sites (each a site's ODS code or name), if any: every sign-in limits them to those sites, and one naming none of yours is refused"
          inputProps={{ spellCheck: false }}
        />
      </Section>

      <Section id="sso-register" title="Register Pathway at the provider">
        <List dense disablePadding>
          {(
            [
              ['Redirect URI', config.redirect_uri],
              ['Back-channel logout URI', config.backchannel_logout_uri],
              ['Post-logout redirect URI', config.post_logout_redirect_uri],
              ['Key set (JWKS) URL, for private_key_jwt', config.jwks_uri],
            ] as const
          ).map(([label, address]) => (
            <ListItem key={label} disableGutters>
              <ListItemText
                primary={label}
                secondary={address}
                slotProps={{ secondary: { sx: { wordBreak: 'break-all' } } }}
              />
            </ListItem>
          ))}
        </List>
      </Section>

      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button type="submit" variant="contained" loading={save.isPending}>
          Save
        </Button>
      </Box>
    </Box>
  );
}
