import { Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiBody as ApiRequestBody, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CreateCleanAudioVideoDto, CreateVideoBackgroundRemovalDto } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import type { HttpRequest } from '../http/http-types';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { parseJobBody } from './parse-job-body';
import { QuoteJobService } from './quote-job.service';
import { renderEstimate, type EstimateBody } from '../billing';
import { EstimateQuery } from './estimate.query';

// The quote a create would get, from the same service, without creating anything (Idempotency-Key has
// nothing to protect here and is ignored).
@ApiTags('billing')
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller('v1/estimates')
export class EstimatesController {
  constructor(private readonly quotes: QuoteJobService) {}

  @Operation('createEstimate', 'Quote a job without creating it', 'The credits a create with this body would be quoted, from the same pricing.')
  @Post()
  @HttpCode(200)
  @ApiExtraModels(CreateCleanAudioVideoDto, CreateVideoBackgroundRemovalDto)
  @ApiRequestBody({
    description: 'the body of the create endpoint that ?type names',
    schema: { oneOf: [{ $ref: getSchemaPath(CreateCleanAudioVideoDto) }, { $ref: getSchemaPath(CreateVideoBackgroundRemovalDto) }] },
  })
  @ApiBody(200, 'Estimate', 'the credits the job would be quoted; no job is created')
  @ApiRequestErrors(400, 413, 422)
  async estimate(@AccountId() accountId: string, @Query() query: EstimateQuery, @Req() req: HttpRequest): Promise<EstimateBody> {
    // The body is read here, not by @Body(): its DTO depends on ?type, which the pipe has checked by now.
    const { videoUrl, options } = await parseJobBody(query.type, req.body);
    const { estimate } = await this.quotes.quote({ accountId, jobType: query.type, videoUrl, options });
    return renderEstimate(estimate);
  }
}
