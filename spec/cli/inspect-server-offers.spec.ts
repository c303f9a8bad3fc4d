import { serverOffers } from '../../src/cli/inspect/page/server-offers.js';

// Which tabs the inspector's catalogue shows, from the capabilities a server declared.

describe('serverOffers', () => {
  it('reads server-everything\'s capabilities as tools, resources with subscribe, prompts, completions and listable tasks', () => {
    const offers = serverOffers({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      completions: {},
    });
    expect(offers).toEqual({
      tools: true,
      resources: true,
      subscribe: true,
      prompts: true,
      completions: true,
      tasks: true,
      toolTasks: true,
      listTasks: true,
      listChanges: { toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true },
    });
  });

  it('counts the 2026-07-28 tasks extension as tasks whose tools run as tasks, but that cannot be listed', () => {
    const offers = serverOffers({ tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
    expect([offers.tasks, offers.toolTasks, offers.listTasks]).toEqual([true, true, false]);
  });

  it('offers nothing for members that are not objects, nor for what an object inherits', () => {
    const inherited = Object.create({ tools: {}, resources: { subscribe: true }, extensions: { 'io.modelcontextprotocol/tasks': {} } }) as Record<string, unknown>;
    const offers = serverOffers({ ...inherited, prompts: 'yes', completions: null, tasks: [], resources: { subscribe: 'true', listChanged: 1 } });
    expect(offers).toEqual({
      tools: false,
      resources: true,
      subscribe: false,
      prompts: false,
      completions: false,
      tasks: false,
      toolTasks: false,
      listTasks: false,
      listChanges: {},
    });
    expect(serverOffers(inherited).tools).toBe(false);
  });
});
