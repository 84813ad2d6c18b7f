import { builder } from '../builder.ts';
// Mono recordings whose two voices were separated automatically (src/audio/diarize.ts).
builder.prismaObjectFields('Call', (t) => ({
  diarized: t.exposeBoolean('diarized', {
    description:
      'A mono recording whose two voices were separated automatically: its agent/customer turns come from the voices, not from channels.',
  }),
  diarizationConfidence: t.exposeFloat('diarizationConfidence', {
    nullable: true,
    description:
      'How clearly the two voices of a mono recording differ (0–1); null when separation was not attempted (stereo, or off). Below 0.5 the call keeps one speaker.',
  }),
}));
