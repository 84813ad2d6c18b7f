// The account's vocabulary: words the recogniser is biased towards (src/accounts/vocabulary.ts).
import { builder } from '../builder.ts';
import { VocabularyInput, setVocabulary } from '../../src/accounts/vocabulary.ts';
import { Account } from './account.ts';
import { accountIdOf, directErrors, byUser } from './common.ts';
import { parseInput } from './errors.ts';

builder.objectField(Account, 'vocabulary', (t) =>
  t.exposeStringList('vocabulary', {
    description:
      "The account's own words (company, product and place names) that transcription is biased towards, besides its templates' phrases, campaign and agent names.",
  }),
);

builder.mutationField('setVocabulary', (t) =>
  t.prismaField({
    type: 'Account',
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Admins: replaces the account vocabulary (at most 500 entries of at most 60 characters; blanks and duplicates are dropped). It applies to calls transcribed from now on. Errors: `invalid_input`.',
    args: { words: t.arg.stringList({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const id = accountIdOf(ctx);
      await setVocabulary(ctx.app.db, id, parseInput(VocabularyInput, args.words), byUser(ctx));
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
