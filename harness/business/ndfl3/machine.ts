/**
 * The model of the declaration workflow: the target states of spec 3.1 (the contract) plus the
 * allowed source states a target file configures. It says what a call from a state must do, and
 * finds the shortest way from one state to another with the calls the safety gate lets through.
 */
import type { State, Workflow, WorkflowOperation } from './workflow.ts';

/**
 *   repeat    the request is already in the call's target state: 200, nothing changes (vendor)
 *   allowed   the table allows the call from this state: accepted, lands in the target state
 *   refused   the table does not allow it: refused, nothing changes
 */
export type Expectation = 'repeat' | 'allowed' | 'refused';

export class Machine {
  constructor(
    readonly workflow: Workflow,
    private readonly sources: ReadonlyMap<string, ReadonlySet<State>>,
  ) {}

  expectation(state: State, op: WorkflowOperation): Expectation {
    if (state === op.target) return 'repeat';
    return this.sources.get(op.name)?.has(state) ? 'allowed' : 'refused';
  }

  allowedFrom(state: State, usable: readonly WorkflowOperation[] = this.workflow.operations): WorkflowOperation[] {
    return usable.filter((op) => this.expectation(state, op) === 'allowed');
  }

  refusedFrom(state: State, usable: readonly WorkflowOperation[] = this.workflow.operations): WorkflowOperation[] {
    return usable.filter((op) => this.expectation(state, op) === 'refused');
  }

  /** States from which no configured call leads anywhere. */
  isTerminal(state: State): boolean {
    return this.allowedFrom(state).length === 0;
  }

  /** The shortest sequence of allowed calls from `from` to a state `goal` accepts (breadth first). */
  path(from: State, goal: (state: State) => boolean, usable: readonly WorkflowOperation[]): WorkflowOperation[] | undefined {
    const previous = new Map<State, { state: State; op: WorkflowOperation } | null>([[from, null]]);
    const queue: State[] = [from];
    while (queue.length) {
      const state = queue.shift()!;
      if (goal(state)) {
        const steps: WorkflowOperation[] = [];
        for (let at = previous.get(state); at; at = previous.get(at.state)) steps.unshift(at.op);
        return steps;
      }
      for (const op of this.allowedFrom(state, usable)) {
        if (!previous.has(op.target)) {
          previous.set(op.target, { state, op });
          queue.push(op.target);
        }
      }
    }
    return undefined;
  }
}
