/** Original prose written for these tests: four sources and three unrelated texts on other subjects. */

export const BEEKEEPING =
  "Keeping bees in a city garden asks for more planning than most newcomers expect. A colony needs a sheltered " +
  "spot that catches the morning sun, a source of water within a short flight, and neighbours who will not panic " +
  "when a swarm settles on their fence. The first season is mostly spent watching: how the workers leave the hive " +
  "at dawn, which flowers they favour in each month, and how quickly the comb fills when the lime trees bloom. " +
  "Honey is a late reward. A careful keeper leaves most of it for the winter, checks the frames for mites every " +
  "few weeks, and learns to read the mood of the colony from the sound it makes when the lid comes off.";

export const TIDES =
  "The height of the tide at any harbour depends on far more than the position of the moon. The shape of the " +
  "coastline funnels the water, shallow shelves slow it down, and the wind can pile it against a shore for hours. " +
  "Sailors once relied on printed tables prepared from years of careful observation at each port, and those tables " +
  "were remarkably accurate for calm weather. Storms break the pattern. A deep low pressure system lifts the sea " +
  "surface by several centimetres for every hectopascal of drop, and when that surge arrives together with a spring " +
  "tide the water can overtop defences that were thought to be safe for a century.";

export const BREAD =
  "Sourdough bread rises because of a living culture of wild yeasts and lactic bacteria rather than a packet of " +
  "dried yeast. The baker feeds the starter with flour and water every day, and it rewards that patience with a " +
  "sour flavour and a crust that stays crisp for days. Timing matters more than strength: a dough left to ferment " +
  "slowly in a cool kitchen develops a deeper taste than one hurried in a warm oven. Most home bakers ruin their " +
  "first loaves by adding too much flour when the dough feels sticky, when in fact a wet dough is exactly what " +
  "gives the open and glossy crumb that everyone admires.";

export const RAILWAYS =
  "When the first railways crossed the countryside, towns had to agree on a common time for the first time in " +
  "their history. Every town had kept its own noon, set by the sun over the church tower, and a journey of a few " +
  "hours could leave a traveller many minutes out of step with the station clock. Railway companies solved the " +
  "problem for themselves by running every train on the time of the capital, and within a generation the whole " +
  "country had followed them. Standard time zones came later still, after long arguments between astronomers, " +
  "engineers and politicians about where the lines should fall.";

export const UNRELATED = [
  "Learning to play the cello as an adult is humbling. The instrument is large, the bow refuses to stay straight, " +
    "and the first notes sound more like a door hinge than music. Progress comes in small steps: a clean open " +
    "string, then a scale that stays in tune, then a simple melody played without looking at the fingers. Teachers " +
    "recommend short daily practice over long weekend sessions, because the hands remember what they repeat often.",
  "Our volunteer group repaired the footpath along the old canal last spring. We cleared brambles, laid gravel " +
    "over the muddy stretches and rebuilt two stiles that had rotted through. The local council lent us tools and " +
    "a small trailer, and a farmer let us store materials in his barn. By June families with pushchairs could walk " +
    "the whole route again, and the kingfishers returned to the reed beds near the lock gates.",
  "The museum reopened after three years of renovation with a new wing devoted to maps. Visitors can compare a " +
    "medieval chart of the known world with satellite images of the same coastlines, and a touch screen lets " +
    "children trace the voyages of early explorers. The curators chose to keep the original oak display cases, " +
    "restored by hand, so the rooms still smell faintly of polish and old paper.",
];

export const ALL_SOURCES = [BEEKEEPING, TIDES, BREAD, RAILWAYS];

/** The words of a text as separated by spaces (for building edited copies in tests). */
export const spaceWords = (text: string) => text.split(" ");
