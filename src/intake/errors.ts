import { DomainError } from '../domain/errors.ts';

export const badRequest = (message: string) => new DomainError('bad_request', message);
