/**
 * The contracts the sandbox keeps, in memory while it runs (spec 2.5): setting surrender amounts
 * replaces the contract's earlier set; the contract keeps its first createdAt; every stored record gets
 * a new integer id.
 */

/** A stored surrender record: the item as sent, stamped and numbered. */
export interface StoredRecord {
  contractId: string;
  id: number;
  createdAt: string;
  updatedAt: string;
  providerName: string;
  currency: string;
  calcPeriodFrom: string;
  calcPeriodTo: string;
  surrenderPercent: number;
  surrenderValue: number;
}

/** A request that passed every rule. */
export interface SurrenderRequest {
  contractId: string;
  productType: string;
  surrender: Array<Pick<StoredRecord, 'calcPeriodFrom' | 'calcPeriodTo' | 'currency' | 'surrenderPercent' | 'surrenderValue'>>;
  updateDate?: string;
}

export interface ContractRecord {
  createdAt: string;
  updatedAt: string;
  updateDate: string;
  providerName: string;
  productType: string;
  contractId: string;
  surrender: StoredRecord[];
}

export class ContractStore {
  private readonly contracts = new Map<string, ContractRecord>();
  private nextId = 1;

  constructor(private readonly providerName: string) {}

  save(request: SurrenderRequest, now = new Date()): ContractRecord {
    const stamp = now.toISOString();
    const contractId = String(request.contractId);
    const surrender = request.surrender.map(
      (item): StoredRecord => ({
        contractId,
        id: this.nextId++,
        createdAt: stamp,
        updatedAt: stamp,
        providerName: this.providerName,
        currency: item.currency,
        calcPeriodFrom: item.calcPeriodFrom,
        calcPeriodTo: item.calcPeriodTo,
        surrenderPercent: item.surrenderPercent,
        surrenderValue: item.surrenderValue,
      }),
    );
    const contract: ContractRecord = {
      createdAt: this.contracts.get(contractId)?.createdAt ?? stamp,
      updatedAt: stamp,
      updateDate: request.updateDate ?? stamp,
      providerName: this.providerName,
      productType: request.productType,
      contractId,
      surrender,
    };
    this.contracts.set(contractId, contract);
    return contract;
  }
}
