import { builder } from '../builder.ts';
import {
  type AgreementFilter,
  machineAgreement,
  setAgreementThreshold,
} from '../../src/calibration/machine-agreement.ts';
import { blindFilter } from '../../src/calibration/read.ts';
import { Account } from './account.ts';
import { accountIdOf, directErrors, sessionOf } from './common.ts';

/*
 * How often people agree with the machine, per criterion (issue 31.2): the report and the account's
 * threshold below which a criterion is flagged.
 */

const MachineAgreementRow = builder
  .objectRef<Awaited<ReturnType<typeof machineAgreement>>['rows'][number]>('MachineAgreementRow')
  .implement({
    description:
      "One criterion: the calls of the period on which a person checked the machine's verdict (an override, a resolved dispute, a closed calibration's benchmark or majority answer), and what they found. The calls behind it: the calls list with `checkedCriterion` (and `checkedChange`).",
    fields: (t) => ({
      criterionKey: t.exposeString('criterionKey'),
      label: t.exposeString('label'),
      checked: t.exposeInt('checked', { description: 'Calls where a person checked this criterion.' }),
      stood: t.exposeInt('stood', { description: "The person's verdict was the machine's." }),
      changed: t.int({ description: 'checked − stood.', resolve: (r) => r.checked - r.stood }),
      falseFail: t.exposeInt('falseFail', { description: 'The machine failed it; the person passed it.' }),
      falsePass: t.exposeInt('falsePass', { description: 'The machine passed it; the person failed it.' }),
      otherChange: t.exposeInt('otherChange', { description: 'Changed to or from not applicable.' }),
      agreement: t.exposeFloat('agreement', { description: 'stood / checked, 0–1.' }),
      flagged: t.exposeBoolean('flagged', { description: "Agreement below the account's threshold." }),
    }),
  });

const MachineAgreementReport = builder
  .objectRef<Awaited<ReturnType<typeof machineAgreement>>>('MachineAgreementReport')
  .implement({
    fields: (t) => ({
      threshold: t.exposeInt('threshold', { description: 'The account’s threshold, percent.' }),
      rows: t.field({
        type: [MachineAgreementRow],
        description: 'Most changed first.',
        resolve: (r) => r.rows,
      }),
      mostChanged: t.field({
        type: MachineAgreementRow,
        nullable: true,
        description: 'The criterion people changed most often (null when nobody changed any).',
        resolve: (r) => (r.rows[0] && r.rows[0].checked > r.rows[0].stood ? r.rows[0] : null),
      }),
    }),
  });

builder.queryField('machineAgreement', (t) =>
  t.field({
    type: MachineAgreementReport,
    authScopes: { member: true },
    description:
      'How often people agreed with the automatic verdict, per criterion, over the calls started in a period (as the calls list filters them). Viewers and above.',
    args: {
      startedFrom: t.arg({ type: 'DateTime', description: 'Inclusive.' }),
      startedTo: t.arg({ type: 'DateTime', description: 'Exclusive.' }),
    },
    resolve: async (_r, args, ctx) =>
      machineAgreement(
        ctx.app.db,
        accountIdOf(ctx),
        // A grader does not read the people's verdicts on the calls they grade blind.
        await blindFilter<AgreementFilter>(ctx.app.db, sessionOf(ctx).user.id, {
          startedFrom: args.startedFrom,
          startedTo: args.startedTo,
        }),
      ),
  }),
);

builder.mutationField('setMachineAgreementThreshold', (t) =>
  t.prismaField({
    type: Account,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Admins: the agreement (whole percent, 0–100) below which a criterion is flagged on the dashboard and in the template editor. Errors: `invalid_input`.',
    args: { percent: t.arg.int({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const u = sessionOf(ctx).user;
      await setAgreementThreshold(ctx.app.db, { id: u.id, accountId: u.accountId }, args.percent);
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id: u.accountId } });
    },
  }),
);
