import type { ValidationError } from 'class-validator';
import type { RequestErrorDetail } from './api-error';

// One detail per offending property: `unknown_property` for properties the DTO does not declare,
// `invalid_value` (all broken rules in one message) for the rest. Nested properties get dotted paths.
export function validationDetails(errors: ValidationError[], parent = ''): RequestErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own: RequestErrorDetail[] = [];
    const constraints = error.constraints ?? {};
    if (constraints.whitelistValidation) {
      own.push({ type: 'unknown_property', field, message: `${field} is not a known property` });
    } else if (Object.keys(constraints).length) {
      own.push({ type: 'invalid_value', field, message: Object.values(constraints).join('; ') });
    }
    return [...own, ...validationDetails(error.children ?? [], field)];
  });
}
