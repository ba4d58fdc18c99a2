/** English function words: closed-class words whose rhythm reflects style rather than topic. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between " +
    "both but by can could did do does doing down during each few for from further had has have having he her " +
    "here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not " +
    "now of off on once only or other our ours ourselves out over own same she should so some such than that the " +
    "their theirs them themselves then there these they this those through to too under until up very was we " +
    "were what when where which while who whom why will with would you your yours yourself yourselves also " +
    "however therefore thus although though whether may might must shall upon within without"
  ).split(" "),
);

/**
 * Words that chat-tuned models use far more often than people do, across vendors (a register, not a topic).
 * Connectives that writing courses teach ("moreover", "in conclusion", "firstly") are deliberately absent:
 * students, and non-native students most of all, use them heavily.
 */
export const MACHINE_REGISTER_WORDS: ReadonlySet<string> = new Set(
  (
    "delve delves delving tapestry multifaceted intricate intricacies pivotal paramount underscore underscores " +
    "underscoring showcase showcases showcasing foster fosters fostering navigate navigating navigates realm " +
    "landscape nuanced holistic seamless seamlessly robust leverage leveraging leverages comprehensive " +
    "crucial vital enhance enhances enhancing enhanced ensuring additionally notably ultimately overall " +
    "testament embark embarking endeavor endeavors resonate resonates vibrant bustling meticulous meticulously " +
    "streamline streamlined facilitate facilitates facilitating utilize utilizes utilizing optimize invaluable " +
    "insights insightful commendable noteworthy garner garnered elevate elevates profound unwavering"
  ).split(" "),
);
