import type { DataSource } from 'typeorm';
import { isDeepStrictEqual } from 'node:util';
import { PriceListEntity } from '../database/price-list.entity';
import type { JobTypePrices, PriceList } from './price-list';

// The price lists billing knows: the current one (quotes) and any earlier one (charges of jobs quoted
// with it). Versions are immutable, so a loaded version is cached for good.
export class PriceCatalog {
  private readonly versions = new Map<number, PriceList>();

  private constructor(
    private readonly dataSource: DataSource,
    private readonly latest: PriceList,
  ) {
    this.versions.set(latest.version, latest);
  }

  // Makes the configured prices the current version: a new version when they differ from the latest
  // one stored, none when they are the same (a restart does not create versions).
  static async open(dataSource: DataSource, configured: JobTypePrices, now = new Date()): Promise<PriceCatalog> {
    const latest = await dataSource.transaction(async (manager) => {
      // Two instances booting with new prices must not both take the next version number.
      await manager.query('LOCK TABLE "billing"."price_list" IN EXCLUSIVE MODE');
      const [stored] = await manager.find(PriceListEntity, { order: { version: 'DESC' }, take: 1 });
      if (stored && isDeepStrictEqual(stored.prices, configured)) return stored;
      const created = manager.create(PriceListEntity, { version: (stored?.version ?? 0) + 1, prices: configured, created_at: now });
      await manager.insert(PriceListEntity, created);
      return created;
    });
    return new PriceCatalog(dataSource, { version: latest.version, prices: latest.prices });
  }

  current(): PriceList {
    return this.latest;
  }

  async version(version: number): Promise<PriceList> {
    const cached = this.versions.get(version);
    if (cached) return cached;
    const stored = await this.dataSource.manager.findOneBy(PriceListEntity, { version });
    if (!stored) throw new Error(`price list version ${version} does not exist`);
    const list = { version: stored.version, prices: stored.prices };
    this.versions.set(version, list);
    return list;
  }
}
