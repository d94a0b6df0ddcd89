import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

// Use on every JetStream controller. Nest's default RPC filter turns any error into a plain { status, message } object, which would hide
// PermanentMessageError from JetStreamServer's settlement. This keeps the original error.
@Catch()
export class KeepErrorsFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
