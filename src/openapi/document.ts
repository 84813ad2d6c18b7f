import { INTAKE_LANGUAGES } from '../transcription/openai.ts';
import { INTAKE_MAX_BYTES } from '../intake/routes.ts';

const error = (code: string, message: string) => ({ value: { error: { code, message } } });

/** Every error answer: its status, the codes it carries, and an example of each. */
const ERRORS: Record<string, { description: string; codes: Record<string, string>; headers?: object }> = {
  '400': {
    description:
      'Malformed request: not multipart/form-data, malformed multipart, no `file` part, two `file` parts, an empty file, or a whole body of 20 MB (20 × 1,048,576 bytes) or more — by `Content-Length` before reading, or counted while streaming (the connection is then closed).',
    codes: {
      bad_request: 'The request body must be less than 20 MB (20971520 bytes).',
      invalid_text: 'customer_name holds a NUL character or broken Unicode.',
    },
  },
  '401': {
    description: 'Missing, malformed, unknown or revoked API key.',
    codes: { unauthorized: 'Send your API key as `Authorization: Bearer <API_KEY>`.' },
    headers: {
      'WWW-Authenticate': { schema: { type: 'string' }, example: 'Bearer realm="escucha", error="invalid_token"' },
    },
  },
  '402': {
    description:
      'The minute reservation (one minute per started megabyte of the file) exceeds the minutes available in the period.',
    codes: { no_minutes: 'This recording needs 3 minutes but only 1 are available this period.' },
  },
  '408': {
    description:
      'Nothing received for `INTAKE_IDLE_TIMEOUT_SECONDS`, the body arriving under the floor rate over a minute, or headers not complete within 30 s; the temporary file is removed.',
    codes: { request_timeout: 'Nothing was received for 30 s; the upload was cut.' },
  },
  '415': {
    description:
      'The file is not audio: a recognised non-audio type (PDF, PNG, ZIP…), or nothing recognised and neither an `audio/*` type nor an audio extension.',
    codes: { not_audio: 'The file is not an audio recording.' },
  },
  '422': {
    description:
      'The agent: named by no means (`agent_code`, `agent_name`, file name), named but not an active agent of the team, or a name two agents share.',
    codes: {
      agent_required: 'Say whose call this is: send agent_code or agent_name, or put the agent code in the file name.',
      unknown_agent: 'No active agent has the code "AG-99".',
      ambiguous_agent: 'Two agents are named "Ana"; send agent_code instead.',
    },
  },
  '429': {
    description: 'Too many requests for the account (`INTAKE_RATE_PER_MINUTE` per api process, 120 by default).',
    codes: { rate_limited: 'Too many requests for this account; retry in 12 s.' },
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.', example: 12 } },
  },
  '431': {
    description: 'The request headers are larger than 16 KB (answered by the HTTP layer, with the same JSON body).',
    codes: { headers_too_large: 'The request headers are larger than 16 KB.' },
  },
  '507': {
    description:
      'The disk for recordings is full or failing, or its free space is below `MIN_FREE_DISK_MB`: nothing was stored or charged; retry later.',
    codes: { insufficient_storage: 'Recordings cannot be stored right now; retry in 60 s.' },
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.', example: 60 } },
  },
  '500': {
    description: 'Anything unexpected; the message carries the request id to quote.',
    codes: {
      internal_error:
        'Something went wrong on our side. Quote request id 5f0c7a9e-3a52-4c39-9a4e-0b1f0f8f3d11 when reporting it.',
    },
  },
};

const REQUEST_ID = {
  'X-Request-Id': {
    description: 'Every answer carries one; a well-formed incoming `X-Request-Id` is reused.',
    schema: { type: 'string' },
  },
};

/** OpenAPI 3.1 description of the intake API (`POST /v1/calls`), served at /v1/openapi.json. */
export function openApiDocument(publicUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Escucha intake API',
      version: '1',
      description:
        'Post each call recording to `POST /v1/calls`, one request per call. The call is transcribed and analyzed against the account\'s QA template, and the result is posted to the account\'s webhook (`call.analyzed`, signed with Standard Webhooks). Requests are `multipart/form-data`; answers are JSON in UTF-8, errors `{"error":{"code","message"}}`.',
    },
    servers: [{ url: `${publicUrl}/v1` }],
    security: [{ apiKey: [] }],
    paths: {
      '/calls': {
        post: {
          operationId: 'createCall',
          summary: 'Send one call recording',
          description:
            'Fields not sent are read from the file name when possible (agent code, date and time, phone, direction); a sent field always wins. Except for the agent, a value that is not understood is ignored, never rejected. With `external_id`, a retried request answers 200 `exists` with the original id and charges nothing.',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { $ref: '#/components/schemas/CallUpload' },
                encoding: { file: { contentType: 'audio/*, application/octet-stream' } },
              },
            },
          },
          responses: {
            '201': {
              description: 'A new call, queued for transcription.',
              headers: REQUEST_ID,
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Accepted' },
                  examples: {
                    queued: {
                      value: {
                        id: '0b6f1f2e-8a53-4b0e-9d3c-1f9c4d1e2a77',
                        status: 'queued',
                        url: `${publicUrl}/calls/0b6f1f2e-8a53-4b0e-9d3c-1f9c4d1e2a77`,
                      },
                    },
                  },
                },
              },
            },
            '200': {
              description:
                'The account already has a call with this `external_id`: its id, nothing new created or charged.',
              headers: REQUEST_ID,
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Accepted' },
                  examples: {
                    exists: {
                      value: {
                        id: '0b6f1f2e-8a53-4b0e-9d3c-1f9c4d1e2a77',
                        status: 'exists',
                        url: `${publicUrl}/calls/0b6f1f2e-8a53-4b0e-9d3c-1f9c4d1e2a77`,
                      },
                    },
                  },
                },
              },
            },
            ...Object.fromEntries(
              Object.entries(ERRORS).map(([status, e]) => [
                status,
                {
                  description: `${e.description} Codes: ${Object.keys(e.codes)
                    .map((c) => `\`${c}\``)
                    .join(', ')}.`,
                  headers: { ...REQUEST_ID, ...(e.headers ?? {}) },
                  content: {
                    'application/json': {
                      schema: {
                        allOf: [
                          { $ref: '#/components/schemas/Error' },
                          {
                            type: 'object',
                            properties: {
                              error: {
                                type: 'object',
                                properties: { code: { enum: Object.keys(e.codes) } },
                              },
                            },
                          },
                        ],
                      },
                      examples: Object.fromEntries(
                        Object.entries(e.codes).map(([code, msg]) => [code, error(code, msg)]),
                      ),
                    },
                  },
                },
              ]),
            ),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key created in the app (Integrations) or with `npm run cli -- apikey:create`: `esk_…`.',
        },
      },
      schemas: {
        CallUpload: {
          type: 'object',
          required: ['file'],
          properties: {
            file: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: `The recording: MP3, WAV, OGG, M4A, AAC, FLAC, Opus, WebM, WMA or AMR. Recognised by its bytes first, else by an \`audio/*\` type or an audio extension. The whole request must be under ${INTAKE_MAX_BYTES} bytes.`,
            },
            external_id: {
              type: 'string',
              maxLength: 200,
              description:
                'Your id of the call, unique per account: a retry with it answers 200 `exists`. Cut to 200 characters.',
              examples: ['crm-123'],
            },
            agent_code: {
              type: 'string',
              description: "The agent's telephony code; matched ignoring case, hyphens, underscores and spaces.",
              examples: ['AG-07'],
            },
            agent_name: {
              type: 'string',
              description: "The agent's name as in the team; used when no code is given.",
              examples: ['Ana García'],
            },
            campaign: {
              type: 'string',
              description: 'Name of an active campaign (case- and accent-insensitive); unknown or archived is ignored.',
              examples: ['Atención'],
            },
            started_at: {
              type: 'string',
              description:
                'Start of the call: ISO 8601 with an offset, Unix seconds, or Unix milliseconds. Not understood, before 2000 or more than a day ahead: ignored.',
              examples: ['2024-01-15T10:30:00+01:00', '1705311000'],
            },
            customer_phone: { type: 'string', examples: ['+34600111222'] },
            customer_name: { type: 'string', examples: ['Luis Pérez'] },
            direction: {
              type: 'string',
              description: '`inbound` or `outbound`; any other value is ignored.',
              examples: ['inbound'],
            },
            language: {
              type: 'string',
              description: `One of ${INTAKE_LANGUAGES.join(' ')} (also \`es-ES\` style); else the campaign's, else detected.`,
              examples: ['en'],
            },
          },
          description: 'Text fields are cut to 300 characters.',
        },
        Accepted: {
          type: 'object',
          required: ['id', 'status', 'url'],
          properties: {
            id: { type: 'string', format: 'uuid', description: 'The call; the same id is in the webhook.' },
            status: { type: 'string', enum: ['queued', 'exists'] },
            url: { type: 'string', format: 'uri', description: 'The call in the web app: `{app_url}/calls/{id}`.' },
          },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: {
                  type: 'string',
                  enum: Object.values(ERRORS).flatMap((e) => Object.keys(e.codes)),
                },
                message: { type: 'string', description: 'In English, for people.' },
              },
            },
          },
        },
      },
    },
  } as const;
}
