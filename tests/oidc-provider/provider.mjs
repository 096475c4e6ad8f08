// A real OpenID provider for the console's sign-in tests (tests/console/oidc.rs): node-oidc-provider
// (the version pinned in package.json and package-lock.json), one confidential client, test accounts whose
// ID tokens carry their roles in the claim `nachfolge_roles`, and a plain HTML sign-in form that a test
// fills in with ordinary HTTP requests (no script, no browser).
//
//   REDIRECT_URI=http://127.0.0.1:8081/anmelden/dienstkonto/rueckkehr CLIENT_SECRET=… node provider.mjs
//
// It listens on 127.0.0.1 on a free port and prints one line of JSON, {"issuer": "http://127.0.0.1:PORT"},
// when it is ready. The signing key (RSA, RS256) is made at every start; the discovery document names
// its JWKS. Plain http (the issuer is on the loopback address, which the console allows for this), or
// HTTPS with TLS_CERT and TLS_KEY (PEM files; the issuer is then https://127.0.0.1:PORT).

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

import Provider from 'oidc-provider';

export const CLIENT_ID = 'nachfolge-konsole';

// login -> password and claims; `nachfolge_roles` in the format of docs/console.md
const ACCOUNTS = {
  wahlleitung: {
    password: 'Dienstkonto-2026!',
    claims: {
      preferred_username: 'wahlleitung',
      name: 'Wahlleitung Musterstadt',
      // a role for the test council, and two entries the console must ignore
      nachfolge_roles: ['wahlleiter:musterstadt-rat', 'buergermeister:musterstadt-rat', 'viewer:'],
    },
  },
  'ohne-rolle': {
    password: 'Dienstkonto-2026!',
    claims: { preferred_username: 'ohne-rolle', name: 'Ohne Rolle', nachfolge_roles: [] },
  },
};

const redirectUri = process.env.REDIRECT_URI;
const clientSecret = process.env.CLIENT_SECRET;
if (!redirectUri || !clientSecret) {
  console.error('provider.mjs: REDIRECT_URI and CLIENT_SECRET must be set');
  process.exit(2);
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readForm(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

// GET /interaction/:uid: the sign-in form; POST /interaction/:uid: checks the password and finishes the
// login (consent is granted by loadExistingGrant below: the console is a first-party client).
async function interaction(provider, req, res) {
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name !== 'login') {
      res.writeHead(501).end('only the login prompt is implemented');
      return;
    }
    if (req.method === 'POST') {
      const form = await readForm(req);
      const login = form.get('login') ?? '';
      const account = Object.hasOwn(ACCOUNTS, login) ? ACCOUNTS[login] : undefined;
      const given = Buffer.from(form.get('password') ?? '');
      const expected = Buffer.from(account?.password ?? '');
      if (!account || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
        res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!DOCTYPE html><p id="fehler">Anmeldung fehlgeschlagen</p>${formHtml(details.uid)}`);
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!DOCTYPE html><html lang="de"><title>Anmeldedienst</title>${formHtml(details.uid)}</html>`);
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`interaction: ${error.message}`);
  }
}

function formHtml(uid) {
  return `<form method="post" action="/interaction/${escape(uid)}">
<label>Benutzername <input name="login"></label>
<label>Passwort <input name="password" type="password"></label>
<button type="submit">Anmelden</button></form>`;
}

const tls = process.env.TLS_CERT && process.env.TLS_KEY
  ? { cert: fs.readFileSync(process.env.TLS_CERT), key: fs.readFileSync(process.env.TLS_KEY) }
  : undefined;
const server = tls ? https.createServer(tls) : http.createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: `test-${port}`, alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
    scopes: ['openid', 'profile', 'nachfolge'],
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], nachfolge: ['nachfolge_roles'] },
    // the claims of the granted scopes go into the ID token (the console reads the roles from it)
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (ctx, interactionObject) => `/interaction/${interactionObject.uid}` },
    async findAccount(ctx, sub) {
      if (!Object.hasOwn(ACCOUNTS, sub)) return undefined;
      return { accountId: sub, async claims() { return { sub, ...ACCOUNTS[sub].claims }; } };
    },
    async loadExistingGrant(ctx) {
      const { session, client, params } = ctx.oidc;
      if (!session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(String(params.scope ?? 'openid'));
      await grant.save();
      return grant;
    },
    renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url.startsWith('/interaction/')) {
      interaction(provider, req, res);
    } else {
      callback(req, res);
    }
  });
  console.log(JSON.stringify({ issuer }));
});
