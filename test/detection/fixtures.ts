/** Sample texts for the detection tests (written for these tests). */
export const HUMAN_ESSAY =
  "When I moved to the city I did not know anybody, and the first winter was hard. I worked nights at a bakery " +
  "on Fulton Street, which meant I slept while everyone else was awake. My landlord, a retired bus driver named " +
  "Sal, left soup outside my door twice a week. I never asked him why. In March the bakery closed, and I found " +
  "a job at the library instead - shelving, mostly, and chasing teenagers out of the reading room at nine. " +
  "Looking back, I think that year taught me more than college did. Not because it was hard, but because " +
  "nobody was grading it.";

export const NON_ENGLISH =
  "Le comité s'est réuni mardi pour examiner le budget. Plusieurs membres ont exprimé des inquiétudes quant au " +
  "coût de la nouvelle aile de la bibliothèque, tandis que d'autres ont fait valoir que la ville avait assez " +
  "attendu. Aucune décision n'a été prise et la réunion reprendra le mois prochain.";
